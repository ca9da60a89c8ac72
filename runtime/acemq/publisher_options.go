package acemq

import "errors"

// PublisherOption configures a Publisher[T].
type PublisherOption[T any] func(*Publisher[T])

// PublishWith makes the publisher encode with c instead of the connection's
// codec. A nil codec makes every Send fail.
func PublishWith[T any](c Codec) PublisherOption[T] {
	return func(p *Publisher[T]) {
		if c == nil {
			p.err = errors.New("acemq: PublishWith was given a nil codec")
			return
		}
		p.codec = c
	}
}

// NotPersistent publishes with delivery mode 1: the broker may lose the
// messages on restart. Default: persistent (delivery mode 2).
func NotPersistent[T any]() PublisherOption[T] {
	return func(p *Publisher[T]) { p.persistent = false }
}

// Mandatory makes a message that reaches no queue fail its Send with a
// *PublishFailedError (Unroutable) instead of being dropped by the broker.
// Default: not mandatory.
func Mandatory[T any]() PublisherOption[T] {
	return func(p *Publisher[T]) { p.mandatory = true }
}

// WithEnvelope applies opts to every envelope the publisher builds, before
// the caller's own options (which can override them), such as
// SchemaVersion(2).
func WithEnvelope[T any](opts ...EnvelopeOption) PublisherOption[T] {
	return func(p *Publisher[T]) { p.envOpts = append(p.envOpts, opts...) }
}
