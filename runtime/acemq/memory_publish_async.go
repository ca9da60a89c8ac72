package acemq

import (
	"context"
	"errors"
)

// PublishAsync publishes msg as Publish does and returns its outcome already
// settled: a memory broker routes a message as it is written. A refusal by a
// full queue (the broker's nack) is the Confirmation's error; any other
// failure (a closed connection, a header AMQP cannot carry) is returned
// here, with nothing published. Safe for concurrent use.
func (t *memTransport) PublishAsync(ctx context.Context, exchange, key string, msg Outbound) (Confirmation, error) {
	res, err := t.Publish(ctx, exchange, key, msg)
	if err != nil && !errors.Is(err, ErrBrokerRefused) {
		return nil, err
	}
	return ConfirmationOf(res, err), nil
}
