package acemq

import (
	"context"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// PullInto takes the next ready message of queue, as Conn.Pull does (settled
// as it is taken; ok is false when the queue is empty), and decodes it into a
// T the way a consumer would: with the connection's codec, or ConsumeWith's,
// refusing a content type the codec does not claim. Of opts only ConsumeWith
// matters; the consume interceptors do not run. It is for tools and tests.
//
// Because the message is already settled, a decode failure still returns it
// (Payload zero, Envelope, Body and ContentType set) with ok true and an
// error that keeps the codec's fatal mark. Safe for concurrent use.
func PullInto[T any](ctx context.Context, conn *Conn, queue string, opts ...ConsumeOption) (Message[T], bool, error) {
	cfg, err := buildConsumeConfig(conn, opts)
	if err != nil {
		return Message[T]{}, false, err
	}
	d, ok, err := conn.Pull(ctx, queue)
	if err != nil || !ok {
		return Message[T]{}, ok, err
	}
	m := pulledMessage[T](d)
	m.Queue = queue
	if err := DecodeFor(cfg.codec, d.ContentType, d.Body, &m.Payload); err != nil {
		return m, true, wrapf(err, "acemq: cannot decode the message pulled from %q", queue)
	}
	return m, true, nil
}

// pulledMessage is d as a handler would see it, before decoding.
func pulledMessage[T any](d driver.Delivery) Message[T] {
	return Message[T]{
		Envelope: EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID),
		Body:     d.Body, ContentType: d.ContentType,
		RoutingKey: d.RoutingKey, Redelivered: d.Redelivered,
	}
}
