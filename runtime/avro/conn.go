package avro

import (
	"errors"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

var registryExt = acemq.NewExtension[Registry]("avro.WithRegistry")

// errNoConnRegistry is why RegistryFrom found nothing.
var errNoConnRegistry = errors.New("acemq: this connection has no schema registry; pass avro.WithRegistry(registry) to acemq.Connect")

// WithRegistry keeps reg on a connection, where generated code for
// avro-registered messages finds it with RegistryFrom. Default: none.
func WithRegistry(reg Registry) acemq.ConnOption { return registryExt.Option(reg) }

// RegistryFrom returns the registry given to acemq.Connect with WithRegistry,
// or an error naming avro.WithRegistry when there is none.
func RegistryFrom(conn *acemq.Conn) (Registry, error) {
	if conn == nil {
		return nil, errNoConnRegistry
	}
	reg, ok := registryExt.Of(conn.Extensions())
	if !ok || reg == nil {
		return nil, errNoConnRegistry
	}
	return reg, nil
}

// RegisteredOn is Registered with the registry conn carries (WithRegistry),
// as an acemq.Codec: generated code builds an avro-registered message's codec
// with it. Without a registry on conn it fails naming avro.WithRegistry.
func RegisteredOn(conn *acemq.Conn, subject, schema string, opts ...Option) (acemq.Codec, error) {
	reg, err := RegistryFrom(conn)
	if err != nil {
		return nil, err
	}
	return asCodec(Registered(reg, subject, schema, opts...))
}

// OfCodec is Of as an acemq.Codec (nil, not a typed nil, on error).
func OfCodec(schema string) (acemq.Codec, error) { return asCodec(Of(schema)) }

// asCodec keeps a nil interface when building the codec failed.
func asCodec(c *Codec, err error) (acemq.Codec, error) {
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Builder returns a codec builder (the form generated code gives a message's
// specification) that makes Of(schema) as an acemq.Codec; it needs nothing
// from the connection.
func Builder(schema string) func(*acemq.Conn) (acemq.Codec, error) {
	return func(*acemq.Conn) (acemq.Codec, error) { return OfCodec(schema) }
}

// RegisteredBuilder returns a codec builder that makes RegisteredOn(conn,
// subject, schema, opts...): an avro-registered message's codec, failing
// naming avro.WithRegistry on a connection without a registry.
func RegisteredBuilder(subject, schema string, opts ...Option) func(*acemq.Conn) (acemq.Codec, error) {
	return func(conn *acemq.Conn) (acemq.Codec, error) { return RegisteredOn(conn, subject, schema, opts...) }
}
