package acemq

import (
	"context"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// Hold opens a hold on queue when the transport can (Holder): messages taken
// with Next stay on the broker, unsettled, until they are settled or the hold
// is closed. Safe for concurrent use.
func (c *Conn) Hold(ctx context.Context, queue string) (driver.HeldQueue, error) {
	h, err := openTransportAs[driver.Holder](c, "hold messages of a queue")
	if err != nil {
		return nil, err
	}
	held, err := h.Hold(ctx, queue)
	if err != nil {
		return nil, wrapf(err, "acemq: cannot hold the messages of queue %q", queue)
	}
	return held, nil
}
