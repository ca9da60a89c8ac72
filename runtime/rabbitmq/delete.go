package rabbitmq

import (
	"context"
	"errors"
	"slices"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// QueueExists reports whether the broker has a queue called name, by a
// passive declare on a throwaway channel, since the broker closes the
// channel when the queue is missing (404 NOT_FOUND). Another connection's
// exclusive queue (405 RESOURCE_LOCKED) exists. Errors are the broker's,
// unprefixed: acemq.Conn wraps them (driver.QueueChecker).
func (t *Transport) QueueExists(ctx context.Context, name string) (bool, error) {
	err := t.withChannel(ctx, func(ch *amqp.Channel) error {
		_, err := ch.QueueDeclarePassive(name, false, false, false, false, nil)
		return err
	})
	switch amqpCode(err) {
	case 0:
		return true, nil
	case amqp.NotFound:
		return false, nil
	case amqp.ResourceLocked:
		return true, nil
	default:
		return false, err
	}
}

// DeleteQueue deletes name with its messages, on a channel of its own; the
// broker cancels its consumers. A missing queue is no error. The transport
// forgets the queue and its bindings, so recovery does not declare them
// again (driver.QueueDeleter).
func (t *Transport) DeleteQueue(ctx context.Context, name string) error {
	err := t.withChannel(ctx, func(ch *amqp.Channel) error {
		_, err := ch.QueueDelete(name, false, false, false)
		return err
	})
	if err == nil || amqpCode(err) == amqp.NotFound {
		t.topo.forgetQueue(name)
		return nil
	}
	return err
}

// amqpCode is the reply code of the broker's error in err's chain: 0 for
// nil, -1 for an error that is not the broker's.
func amqpCode(err error) int {
	if err == nil {
		return 0
	}
	var ae *amqp.Error
	if errors.As(err, &ae) {
		return ae.Code
	}
	return -1
}

// forgetQueue drops the declaration of queue and its bindings.
func (tp *topology) forgetQueue(queue string) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.list = slices.DeleteFunc(tp.list, func(op topoOp) bool {
		return op.kind != opExchange && op.name == queue
	})
}

var (
	_ driver.QueueChecker = (*Transport)(nil)
	_ driver.QueueDeleter = (*Transport)(nil)
)
