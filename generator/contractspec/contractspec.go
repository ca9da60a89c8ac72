// Package contractspec builds, at run time, the specification values a
// generated package declares for a contract, from the generator's model
// (generator.Entry): the CLI's plan, dlq and registry commands use them
// instead of generated code, and a test proves them equal, field for field,
// to the generated ones for every golden case. Payloads are any: a
// specification built here decodes a message into what encoding/json would
// (maps, slices, strings, numbers), or a string or []byte for the raw codecs.
//
// The codecs come by name from the runtime's registry (acemq.CodecByName):
// this package imports runtime/yaml, runtime/toml and runtime/xml, which
// register theirs; avro and avro-registered are built from the entry's
// schemas, and an encrypted codec wraps either with the connection's keyring
// (crypto.WithKeyring), as generated code does. Every function is safe for
// concurrent use; the values they return are read-only.
package contractspec

import (
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/avro"
	"github.com/acemq/acemq-gen/runtime/crypto"
	"github.com/acemq/acemq-gen/runtime/patterns"
	_ "github.com/acemq/acemq-gen/runtime/toml" // registers "toml"
	_ "github.com/acemq/acemq-gen/runtime/xml"  // registers "xml"
	_ "github.com/acemq/acemq-gen/runtime/yaml" // registers "yaml"
)

// Message is the specification of e, an event or a command: what the
// generated package's <name>Spec holds.
func Message(e generator.Entry) *acemqimpl.MessageSpec[any] {
	return &acemqimpl.MessageSpec[any]{Exchange: e.Exchange, RoutingKey: e.RoutingKey, Queue: e.Queue,
		Codec: Codec(e), Retry: e.Retry.Policy(), Version: e.Version, Headers: e.Headers,
		Mandatory: e.Mandatory, Queues: e.Queues}
}

// RPC is the specification of e, an rpc: what the generated package's
// <name>Spec holds. Its declared errors are new values of the same codes.
func RPC(e generator.Entry) *acemqimpl.RPCSpec[any, any] {
	s := &acemqimpl.RPCSpec[any, any]{Queue: e.Queue, Codec: Codec(e), Timeout: e.Timeout, Queues: e.Queues}
	for _, name := range e.Errors {
		s.Errors = append(s.Errors, patterns.NewError(name))
	}
	return s
}

// Stream is the specification of e, a stream: what the generated
// package's <name>Spec holds.
func Stream(e generator.Entry) *acemqimpl.StreamSpec[any] {
	return &acemqimpl.StreamSpec[any]{Stream: e.Queue, Codec: Codec(e), Version: e.Version, Headers: e.Headers,
		MaxAge: e.Retention.MaxAge, MaxBytes: e.Retention.MaxBytes, SegmentBytes: e.Retention.SegmentBytes}
}

// Codec is e's codec builder: avro and avro-registered built from e's
// schemas (the latter with the connection's registry, avro.WithRegistry),
// any other codec by its registered name, wrapped by crypto.Encrypted when
// e is encrypted.
func Codec(e generator.Entry) acemqimpl.CodecBuilder {
	var inner acemqimpl.CodecBuilder
	switch {
	case e.Subject != "":
		inner = avro.RegisteredBuilder(e.Subject, e.AvroSchema, avro.ReaderSchema(e.AvroFullSchema))
	case e.AvroSchema != "":
		inner = avro.Builder(e.AvroSchema)
	default:
		inner = acemqimpl.Named(e.Codec)
	}
	if e.Encrypted {
		return crypto.Encrypted(inner)
	}
	return inner
}
