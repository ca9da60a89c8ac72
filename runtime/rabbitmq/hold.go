package rabbitmq

import (
	"context"
	"fmt"
	"sync"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// Hold opens a hold on queue (driver.Holder): a channel of its own on which
// Next is basic.get without auto-ack. What it has not settled returns to the
// queue when the hold closes, or when the connection drops — RabbitMQ puts a
// returned message of a classic queue back in its place.
func (t *Transport) Hold(ctx context.Context, queue string) (driver.HeldQueue, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := t.waitToDeclare(ctx); err != nil {
		return nil, err
	}
	conn, err := t.connection(ctx)
	if err != nil {
		return nil, err
	}
	ch, err := conn.Channel()
	if err != nil {
		return nil, fmt.Errorf("acemq: cannot open a channel to hold queue %q: %w", queue, err)
	}
	if _, err := ch.QueueDeclarePassive(queue, false, false, false, false, nil); err != nil {
		_ = ch.Close()
		return nil, fmt.Errorf("acemq: cannot hold queue %q: %w", queue, err)
	}
	return &rabbitHold{ch: ch, queue: queue}, nil
}

// rabbitHold is one hold: its channel's unacked messages. Safe for
// concurrent use (amqp091 channels are).
type rabbitHold struct {
	ch    *amqp.Channel
	queue string
	once  sync.Once
}

// Next takes the next ready message with basic.get, unsettled.
func (h *rabbitHold) Next(ctx context.Context) (driver.Delivery, bool, error) {
	if err := ctx.Err(); err != nil {
		return driver.Delivery{}, false, err
	}
	got, ok, err := h.ch.Get(h.queue, false)
	if err != nil {
		return driver.Delivery{}, false, fmt.Errorf("acemq: cannot take a message from queue %q: %w", h.queue, err)
	}
	if !ok {
		return driver.Delivery{}, false, nil
	}
	return toDelivery(got), true, nil
}

// Close closes the channel, which returns its unacked messages. Idempotent.
func (h *rabbitHold) Close() error {
	var err error
	h.once.Do(func() {
		if cerr := h.ch.Close(); cerr != nil && cerr != amqp.ErrClosed {
			err = cerr
		}
	})
	return err
}
