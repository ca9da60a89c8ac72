package acemq

import "github.com/acemq/acemq-gen/runtime/acemq/driver"

// Extension is a typed key under which a package that acemq must not import
// (runtime/avro, runtime/crypto, runtime/rabbitmq) keeps a value on a
// connection. Create one per value with NewExtension, offer Option as the
// package's ConnOption, and read it back with Of. Safe for concurrent use.
type Extension[T any] struct {
	name string
}

// NewExtension returns a new key; name is used in error messages only.
func NewExtension[T any](name string) *Extension[T] {
	return &Extension[T]{name: name}
}

// Name returns the name the extension was created with.
func (e *Extension[T]) Name() string { return e.name }

// Option returns a ConnOption that stores v under e.
func (e *Extension[T]) Option(v T) ConnOption {
	return func(c *connConfig) error {
		if c.ext == nil {
			c.ext = map[any]any{}
		}
		c.ext[e] = v
		return nil
	}
}

// Of returns the value stored under e, and whether there was one.
func (e *Extension[T]) Of(x driver.Extensions) (T, bool) {
	v, ok := x.Value(e).(T)
	return v, ok
}
