package acemqimpl

import "github.com/acemq/acemq-gen/runtime/acemq"

// CodecBuilder builds a message's codec from what the connection carries (a
// schema registry, a keyring), or fails naming what is missing; a codec that
// needs nothing is wrapped by Static. The runtime calls it through
// acemqimpl.PublishWithFunc, acemqimpl.ConsumeWithFunc and
// patterns.RequesterCodecFunc, which refuse a nil codec and turn a panic into
// an error.
type CodecBuilder = func(*acemq.Conn) (acemq.Codec, error)

// Static is the CodecBuilder of a codec that needs nothing from the
// connection: it returns c.
func Static(c acemq.Codec) CodecBuilder {
	return func(*acemq.Conn) (acemq.Codec, error) { return c, nil }
}
