package main

// The help of the commands package main runs itself, as acemq-gen help
// COMMAND prints it: what each does, its flags and arguments.
const (
	generateAbout = `Generate reads the contracts under PATH and writes one Go package per domain
into DIR/<package>/, removing the generated files no contract writes any
longer. Nothing is written when a contract has an error.

flags:
  -o, --output DIR   the output directory (default .); its import path comes
                     from the nearest go.mod
  --asyncapi         also write DIR/<domain>.asyncapi.yaml, each domain's
                     AsyncAPI 3.0 document (see acemq-gen help asyncapi)`

	checkAbout = `Check compares DIR with what generate would write and exits 1, printing a
diff on stdout, when a generated file is missing, edited or stale. Run it in
CI to catch a contract changed without go generate.

flags:
  -o, --output DIR   the output directory (default .)
  --asyncapi         check the AsyncAPI documents too, as generate --asyncapi
                     writes them`

	asyncapiAbout = `AsyncAPI writes DIR/<domain>.asyncapi.yaml (or .json), one AsyncAPI 3.0.0
document per domain from the point of view of its owning service: a channel
per message address with its AMQP bindings, send operations for the events,
receive operations for the commands and the RPC requests (the reply through
the operation's reply object), every message with its content type, payload
schema (Avro for the avro codecs, JSON Schema otherwise) and headers. It
removes the documents no domain writes any longer.

flags:
  -o, --output DIR      the output directory (default .)
  --format yaml|json    the documents' format (default yaml)
  --server NAME=URL     a server entry, amqp:// or amqps://, its path the
                        virtual host; repeatable (default: none)`

	vetAbout = `Vet validates the contracts under PATH without writing anything. Errors exit
1; warnings (a deprecated message, type or field in use) are printed and exit
0. When it finds nothing it says so in one line.`

	compatAbout = `Compat compares the contracts under PATH with BASE, a released version, and
exits 1 naming each change that breaks readers or writers built from BASE:
events and RPC responses must stay readable by BASE's readers, commands and
RPC requests must read what BASE's writers send. When nothing breaks it says
so in one line.

With --history the contracts are checked, with the same rules, against every
committed version of each contract file in git (following renames): each
break names the commit (short hash and subject), the message and the field.

flags:
  --against BASE   a directory or git:REV (read with git show, no checkout)
  --history        against every commit that changed a contract file
  --since REV      with --history, only REV and the commits after it
  --full           demand both directions for every message
  --usage FILE     the usage graph (acemq-gen graph's JSON): removing or
                   retyping an event's field breaks only when a consumer
                   reads it (the break names the service and the read's
                   file:line); one nobody reads passes with a note`

	graphAbout = `Graph loads Go modules (directories, a go.work's directory) or package
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

	catalogAbout = `Catalog writes a static site into DIR from the contracts under PATH (plain
HTML and CSS and a small search script; nothing is fetched when it is viewed,
so it opens from the file system or any static host): an index of the
domains with their messages, RPCs and types, searchable by message, field
and header name; a page per message (kind, doc, deprecation, codec and
content type, routing key, queues, retry policy and its waits, dead-letter
and parked queues, headers, payload fields with their types linked, Avro
schema, an example payload); a page per type; and per domain a topology
diagram (SVG) of its exchanges, bindings, queues, retry rungs and
dead-letter routes. The same inputs give the same bytes. Catalog files DIR
no longer needs are removed.

flags:
  -o, --output DIR   the site's directory (required)
  --usage FILE       the usage graph acemq-gen graph writes: the services
                     that publish and consume each message, their event
                     queues, and the fields their handlers read
  --history          each message's versions through git, with compat's
                     verdict against the version before and the commit
  --since REV        with --history, only REV and the commits after it
  --check            write nothing; exit 1, naming each file, when DIR is
                     missing a file, holds a different or a stale one`

	initAbout = `Init writes a contract to edit, DIR/contracts/DOMAIN.acemq.yaml, and DIR/gen.go
holding the line go generate runs:
  //go:generate go tool acemq-gen generate -o . ./contracts
It never overwrites a contract and keeps an existing gen.go. DOMAIN defaults
to DIR's name. gen.go takes the package of the Go files in DIR; with none, it
is package main at a module's root (where main.go goes) and DIR's name
elsewhere. The module needs the tool once:
  go get -tool github.com/acemq/acemq-gen/cmd/acemq-gen

flags:
  -o, --output DIR   the directory to scaffold in (default .)`
)
