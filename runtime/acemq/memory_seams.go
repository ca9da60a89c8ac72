package acemq

import (
	"context"
	"errors"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/internal/memq"
)

// The memory transport's optional seams: CapabilityReporter, PublishAsync,
// QueueChecker, QueueDeleter and OpenReplies.

// Supports reports what the memory transport does (CapabilityReporter):
// publisher confirms (unless memory://NAME?confirms=off), dead-lettering,
// quorum queues and streams (an append-only log with offsets, positions and
// retention; see memq). It does not order by priority, delay delivery, run
// transactions or reconnect (it never loses its connection).
func (t *memTransport) Supports(c driver.Capability) bool {
	switch c {
	case driver.CapabilityPublisherConfirms:
		return t.confirms
	case driver.CapabilityDeadLettering, driver.CapabilityQuorumQueues, driver.CapabilityStreams:
		return true
	default:
		return false
	}
}

// PublishAsync publishes msg as Publish does and returns its outcome already
// settled: a memory broker routes a message as it is written. A refusal by a
// full queue (the broker's nack) is the Confirmation's error; any other
// failure (a closed connection, a header AMQP cannot carry) is returned
// here, with nothing published. Safe for concurrent use.
func (t *memTransport) PublishAsync(ctx context.Context, exchange, key string, msg driver.Outbound) (driver.Confirmation, error) {
	res, err := t.Publish(ctx, exchange, key, msg)
	if err != nil && !errors.Is(err, ErrBrokerRefused) {
		return nil, err
	}
	return driver.ConfirmationOf(res, err), nil
}

// QueueExists reports whether the broker has a queue called name
// (QueueChecker), without touching it: like a passive declare, it neither
// creates the queue nor counts as a use for x-expires. Another connection's
// exclusive queue exists.
func (t *memTransport) QueueExists(ctx context.Context, name string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return t.c.QueueExists(name)
}

// DeleteQueue deletes name with its messages and bindings, cancelling its
// consumers, as RabbitMQ's queue.delete does (QueueDeleter). A queue that
// does not exist is no error; another connection's exclusive queue is
// RESOURCE_LOCKED.
func (t *memTransport) DeleteQueue(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return t.c.DeleteQueue(name)
}

// memoryReplyPrefix names memory's reply pseudo-queues like RabbitMQ's
// direct reply-to addresses.
const memoryReplyPrefix = "amq.rabbitmq.reply-to."

// OpenReplies gives a requester a private reply address, as RabbitMQ's
// direct reply-to does: an exclusive pseudo-queue named
// amq.rabbitmq.reply-to.<uuid>, reached through the default exchange,
// consumed without acknowledgements and gone once the channel is closed (or
// the connection is). Messages published to it after that reach no queue.
func (t *memTransport) OpenReplies(ctx context.Context, deliver func(driver.Delivery)) (driver.ReplyChannel, error) {
	if deliver == nil {
		return nil, errors.New("memory: OpenReplies was given a nil deliver func")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := memoryReplyPrefix + NewUUID()
	s, err := t.c.ConsumeReplies(name, func(d memq.Delivery) { deliver(fromMemDelivery(d)) })
	if err != nil {
		return nil, err
	}
	return &memReplies{t: t, address: name, sub: s}, nil
}

// memReplies is one memory reply channel. Safe for concurrent use.
type memReplies struct {
	t       *memTransport
	address string
	sub     *memq.Subscription
}

// Address returns the pseudo-queue's name.
func (r *memReplies) Address() string { return r.address }

// Publish publishes msg addressed to the pseudo-queue.
func (r *memReplies) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (PublishResult, error) {
	return r.t.Publish(ctx, exchange, key, driver.StampReplyAddress(msg, r.address))
}

// Close removes the pseudo-queue and its consumer. Idempotent.
func (r *memReplies) Close() error { return r.sub.Close() }

// ReleasesHeaders reports that Publish keeps nothing of msg.Headers
// (driver.HeadersReleaser): every queue a message reaches stores a copy.
func (t *memTransport) ReleasesHeaders() bool { return true }
