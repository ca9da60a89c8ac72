package graph

// The help of acemq-gen graph, as acemq-gen help graph prints it.
const (
	// About is what graph does, its flags and arguments.
	About = `Graph loads Go modules (directories, a go.work's directory) or package
patterns with go/packages and writes the system graph, as JSON by default
(docs/usage.md): per service (a module, or the service its
Consume<Event>/Subscribe calls name) the events it publishes, the commands
it sends, the RPCs it calls, what it consumes (with the queue) and serves,
and the payload fields its code reads, each with file:line. A payload that
escapes into any, reflection, encoding or a function outside the loaded
packages counts as reading every field, and the graph says why.

With --check it exits 1 naming each message published or sent that nobody
consumes, consumed that nobody publishes or sends, each RPC called that
nobody serves and each command sent by the service that consumes it; an
ignore file lists deliberate ones, one "CHECK domain.Message" a line
(CHECK: unconsumed, unpublished, unserved or self-send). With --against it
prints what changed since a git revision: producers and consumers added
(+) or removed (-), fields newly read or no longer read.

flags:
  --format FORMAT     json (default), dot or mermaid
  --check             exit 1 on each finding, printed on stderr
  --ignore FILE       with --check, the findings to ignore
  --against git:REV   print the changes since REV (checked out with git
                      archive into a temporary directory, then removed)`

	// Example is command lines to copy, one a line.
	Example = `acemq-gen graph ./services/shop ./services/billing > usage.json
acemq-gen graph --check --ignore .acemq-graph-ignore ./...
acemq-gen graph --against git:origin/main ./services/billing`
)
