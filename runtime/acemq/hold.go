package acemq

import (
	"context"
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// Hold opens a hold on queue when the transport can (Holder): messages taken
// with Next stay on the broker, unsettled, until they are settled or the hold
// is closed. Safe for concurrent use.
func (c *Conn) Hold(ctx context.Context, queue string) (driver.HeldQueue, error) {
	h, ok := c.transport.(driver.Holder)
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
