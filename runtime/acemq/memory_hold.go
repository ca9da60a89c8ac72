package acemq

import (
	"context"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/internal/memq"
)

// Hold opens a hold on queue (Holder): messages taken with Next stay
// unsettled until acked or nacked, and those still unsettled return to the
// queue in their place when the hold or the connection closes.
func (t *memTransport) Hold(ctx context.Context, queue string) (driver.HeldQueue, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	h, err := t.c.Hold(queue)
	if err != nil {
		return nil, err
	}
	return memHold{h: h}, nil
}

// memHold is one memory hold. Safe for concurrent use.
type memHold struct{ h *memq.Hold }

// Next takes the next ready message, unsettled.
func (m memHold) Next(ctx context.Context) (driver.Delivery, bool, error) {
	if err := ctx.Err(); err != nil {
		return driver.Delivery{}, false, err
	}
	d, ok, err := m.h.Next()
	return fromMemDelivery(d), ok, err
}

// Close returns the unsettled messages to the queue. Idempotent.
func (m memHold) Close() error { return m.h.Close() }
