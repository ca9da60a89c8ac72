// Package codecbench holds no code: its tests benchmark every codec stack
// acemq offers — JSON, Avro fixed (avro.Of), Avro registered, Avro registered
// with a reader schema, each bare and wrapped in crypto.Wrap — on one
// realistic 10-field record, next to raw hamba/avro and raw hamba/avro sealed
// with stdlib AES-GCM. Besides ns/op each benchmark reports cpu-ns/op, the
// CPU time of its own thread, which a loaded machine inflates far less.
//
//	go test -run '^$' -bench . -count 6 ./runtime/codecbench > stacks.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /codec -row /layer,/op stacks.txt
package codecbench
