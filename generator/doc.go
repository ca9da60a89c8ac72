// Package generator turns acemq contracts into Go packages. It reads bytes
// and returns files in memory; only the acemq-gen command writes to disk.
//
// The pipeline:
//
//	Sources (path, bytes): *.acemq.yaml contracts and *.avsc Avro schemas
//	  │ parse*     goccy/go-yaml AST (JSON is YAML) → positioned syntax tree of
//	  │            decoded values; unknown keys, wrong value kinds (only parse
//	  │            reads YAML)
//	  ▼
//	syntax trees, one per file
//	  │ model*     a world of every file: named types declared first, so files use
//	  │            each other's types (imports: alias.Type, Avro full names); .avsc
//	  │            files join the domain that names them (schema:, acemq.domain) or
//	  │            stay type libraries; defaults applied (codec, retry, routing key,
//	  │            queue, subject, namespace, timeout)
//	  ▼
//	Model (Domain → Records, Messages, RPCs; type libraries)
//	  │ validate*  names, Go-name collisions, cycles, routing keys and queues, codecs
//	  │            a payload can travel with, Avro schemas (hamba/avro)
//	  ▼
//	Model + Diagnostics (path:line:col: message, every problem of the run)
//	  │ go/types   bound types (go: import/path.Type in types:): the named packages
//	  │            loaded once per run with go/packages in ModuleDir, each Go type
//	  │            checked against its contract type (validate_gotypes.go)
//	  ▼
//	Model + Diagnostics
//	  │ emit*      dave/jennifer → go/format
//	  ▼
//	File (DIR-relative path, bytes): <package>/<domain>.acemq.go per domain and
//	<package>/<package>.acemq.go per type library
//
// AsyncAPI takes the same model to a second emission, emit_asyncapi*.go:
// one AsyncAPI 3.0.0 document per domain, <domain>.asyncapi.yaml (or .json),
// built as ordered data and marshalled (encoding/json; YAML through
// internal/yamlout), never from a template.
//
// A generated domain package holds the payload types with their Avro schemas,
// a Publisher, Consume<Message> per event and command, Serve<Rpc> and a Client
// per RPC, the handler sets (EventHandlers, Handlers) with their Unimplemented
// types, Subscribe and Serve, Intercept<Message>, Rules, Topology and
// DeclareTopology. Each message's contract is one unexported value,
// <message>Spec, of the generated-code support package (acemqimpl): its
// exchange and routing key, retry policy, queue options and codec, which
// every publisher, consumer and topology of the message reads. A codec that
// needs the connection (avro-registered's registry, encrypted's keyring) is
// written there as a builder, avro.RegisteredBuilder or crypto.Encrypted,
// that makes it from the connection when a publisher or consumer is made.
//
// names.go is the one naming authority: it spells every Go identifier a
// generated package declares, and domainNames lists them all. Validation's
// collision check claims exactly that list and emission calls the same
// functions, so a name emission adds cannot escape the check; what both
// stages ask of the model otherwise is in model_query.go, and neither calls
// the other.
//
// A bound type is an existing Go type the contract names instead of having
// one generated: emission declares nothing for it (no type, constants or
// methods) and writes the named type, its import registered under the
// package name go/packages read, wherever the contract uses the type. It has
// no AvroSchema methods; the schema of every payload holds its schema, and
// where generated code needs it alone (a union branch) it is written in
// place. A bound record holds no union and no JSON form field, whose
// methods would have to be generated on it. The generator calls
// go/packages itself, given ModuleDir, so the CLI only passes a directory
// and still does every write; go/packages reads, it runs `go list`.
//
// Multi-branch unions become a sealed interface with one wrapper type per
// branch. The json codec carries them as Avro's JSON encoding ({"long": 5});
// the Avro codecs through an unexported mirror of each record on the way to
// a union, whose union fields are *avro.Union converters, each given a table
// of its union's branches (hamba/avro writes a union from a pointer
// converter or a {"<branch>": value} map, never from an interface), swapped
// in by acemqimpl.MappedCodec. The yaml, toml, text
// and bytes codecs cannot carry a union: a diagnostic says so. Records an
// xml payload reaches get xml tags (model_xml.go); XML carries no map, union
// or list of lists, and validation says so at the field.
//
// Output depends only on the sources' paths and bytes and the options:
// sources are sorted, domains are emitted in package order and diagnostics in
// position order, and no timestamp, version or absolute path is written.
//
// Generate, Vet, AsyncAPI, Catalog, CatalogContents and Compat are safe for concurrent use;
// they share no state.
package generator
