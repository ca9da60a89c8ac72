package acemq

import (
	"context"
	"fmt"
)

// Holder is an optional Transport seam: a transport that can take messages
// off a queue one at a time and hold them unsettled until each is acked or
// nacked, or the hold is closed (basic.get without auto-ack on a channel of
// its own, on RabbitMQ; memory:// and the RabbitMQ transport implement it).
// It is how tools move messages without losing any: what they have not
// settled goes back to the queue when the hold ends, however it ends.
// Implementations must be safe for concurrent use.
type Holder interface {
	// Hold opens a hold on queue, which must exist.
	Hold(ctx context.Context, queue string) (HeldQueue, error)
}

// HeldQueue is one hold on a queue (see Holder). Next and Close may be
// called from different goroutines; a delivery's Ack and Nack settle it.
type HeldQueue interface {
	// Next takes the next ready message, unsettled; ok is false when the
	// queue has nothing ready to hand over.
	Next(ctx context.Context) (d Delivery, ok bool, err error)
	// Close returns every message still unsettled to the queue, in its
	// place (a classic queue keeps publish order). Idempotent.
	Close() error
}

// Hold opens a hold on queue when the transport can (Holder): messages taken
// with Next stay on the broker, unsettled, until they are settled or the hold
// is closed. Safe for concurrent use.
func (c *Conn) Hold(ctx context.Context, queue string) (HeldQueue, error) {
	h, ok := c.transport.(Holder)
	if !ok {
		return nil, fmt.Errorf("acemq: a %T cannot hold messages of a queue", c.transport)
	}
	if c.isClosed() {
		return nil, ErrClosed
	}
	held, err := h.Hold(ctx, queue)
	if err != nil {
		return nil, wrapf(err, "acemq: cannot hold the messages of queue %q", queue)
	}
	return held, nil
}
