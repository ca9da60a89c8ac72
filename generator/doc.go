// Package generator turns acemq contracts into Go packages. It reads bytes
// and returns files in memory; only the acemq-gen command writes to disk.
//
// The pipeline:
//
//	Source (path, YAML bytes)
//	  │ parse*     goccy/go-yaml AST → positioned syntax tree; unknown keys, wrong value kinds
//	  ▼
//	syntax tree
//	  │ model*     names resolved, defaults applied (codec, retry, routing key, queue, namespace)
//	  ▼
//	Model (Domain → Records, Messages)
//	  │ validate*  names, Go-name collisions, cycles, routing keys and queues, Avro schemas (hamba/avro)
//	  ▼
//	Model + Diagnostics (path:line:col: message, every problem of the run)
//	  │ emit*      dave/jennifer → go/format
//	  ▼
//	File (DIR-relative path, bytes): one <package>/<domain>.acemq.go per domain
//
// Output depends only on the sources' paths and bytes: sources are sorted,
// domains are emitted in package order and diagnostics in position order,
// and no timestamp, version or absolute path is written.
//
// Generate, Vet and Build are safe for concurrent use; they share no state.
package generator
