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
