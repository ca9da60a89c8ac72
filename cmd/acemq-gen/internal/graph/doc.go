// Package graph reads the services' own Go code and builds the system graph
// (sysgraph.Graph): who publishes, sends, calls, consumes and serves which
// message, and which payload fields each consumer reads.
//
//	dirs / patterns ─▶ load (go/packages) ─▶ find generated packages (Exchange, Topology)
//	        │                                         │
//	        ▼                                         ▼
//	  every loaded file ─▶ uses (Publish<E>, Send<C>, Client.<R>, Consume<X>, Subscribe, Serve…)
//	        │
//	        └─▶ reads (go/types selections on generated records; escapes into any,
//	            reflection, encoding, unknown functions: every field) ─▶ build ─▶ sysgraph.Graph
//	                                                                        │
//	                                      Check (--check) ◀─────────────────┼────▶ Diff (--against)
//
// Field reads are found by type, not by data flow: every selection of a
// field of a generated record anywhere in a module's loaded code counts as
// read by every consumer in that module, and in the loaded modules that
// import it (a library's helper reads for its callers: reach, view). That
// over-approximates (a field read by the module's publisher counts too) and
// never misses a read through a helper, closure, method value, goroutine,
// defer, range, switch, pointer, embedding or generic code. A value holding a record that escapes into an
// interface (any, fmt, encoding/json, reflect), is converted to another
// type, compared whole, has a generated method called, or is passed to a
// function outside the loaded packages (or to a loaded generic function
// that lets it escape) counts as reading every field, with the reason.
//
// The command acemq-gen graph is here too, after its flags: Options, Run
// (write, --check or --against) and its help, About and Example.
package graph
