package rabbitmq

import (
	"context"
	"fmt"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// MessageCount returns how many messages of queue are ready, by a passive
// declare on a channel of its own (driver.QueueInspector).
func (t *Transport) MessageCount(ctx context.Context, queue string) (int, error) {
	var n int
	err := t.withChannel(ctx, func(ch *amqp.Channel) error {
		q, err := ch.QueueDeclarePassive(queue, false, false, false, false, nil)
		n = q.Messages
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("acemq: cannot count the messages of queue %q: %w", queue, err)
	}
	return n, nil
}

// Pull takes the next ready message of queue with basic.get, settled as it
// is taken (driver.Puller); ok is false when the queue is empty.
func (t *Transport) Pull(ctx context.Context, queue string) (d driver.Delivery, ok bool, err error) {
	err = t.withChannel(ctx, func(ch *amqp.Channel) error {
		got, found, err := ch.Get(queue, true)
		if found {
			d, ok = toDelivery(got), true
			d.Acker = settledAcker{}
		}
		return err
	})
	if err != nil {
		return driver.Delivery{}, false, fmt.Errorf("acemq: cannot pull from queue %q: %w", queue, err)
	}
	return d, ok, nil
}

// settledAcker settles a message that was settled as it was taken.
type settledAcker struct{}

// Ack does nothing: the message is already settled.
func (settledAcker) Ack() error { return nil }

// Nack does nothing: the message is already settled.
func (settledAcker) Nack(bool) error { return nil }
