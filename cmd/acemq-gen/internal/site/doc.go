// Package site renders the contract catalog: a static site (plain HTML and
// CSS, a small search script, nothing fetched at view time) of every domain,
// message, RPC, type, queue and service, with a topology diagram per domain.
// `acemq-gen catalog` writes it.
//
// The contract's meaning is read from one place, the generator's catalog
// (generator.CatalogContents); queues, retry rungs and dead-letter routes
// from the topology the runtime declares for it (contractspec); who
// publishes and consumes from the usage graph (sysgraph); versions from
// git (compat.Versions).
//
//	contracts ─▶ generator.CatalogContents ─┐
//	usage graph (sysgraph, optional) ───────┼─▶ build (view model) ─▶ html/template + SVG layout ─▶ []File ─▶ DIR
//	git history (compat, optional) ─────────┘         │
//	                                                  └─▶ search index (JSON in a script)
//
// The same inputs give the same bytes: no clocks, no map order, no
// absolute paths.
//
// The command acemq-gen catalog is here too, after its flags: Options, Run
// (write the site, or --check it against DIR as acemq-gen check does
// generated code) and its help, About and Example.
package site
