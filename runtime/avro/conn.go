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
