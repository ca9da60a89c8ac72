package acemq

import (
	"context"
	"errors"
)

// memoryReplyPrefix names memory's reply pseudo-queues like RabbitMQ's
// direct reply-to addresses.
const memoryReplyPrefix = "amq.rabbitmq.reply-to."

// OpenReplies gives a requester a private reply address, as RabbitMQ's
// direct reply-to does: an exclusive pseudo-queue named
// amq.rabbitmq.reply-to.<uuid>, reached through the default exchange,
// consumed without acknowledgements and gone once the channel is closed (or
// the connection is). Messages published to it after that reach no queue.
func (t *memTransport) OpenReplies(ctx context.Context, deliver func(Delivery)) (ReplyChannel, error) {
	if deliver == nil {
		return nil, errors.New("memory: OpenReplies was given a nil deliver func")
	}
	if err := t.check(ctx); err != nil {
		return nil, err
	}
	name := memoryReplyPrefix + NewUUID()
	s, err := t.subscribeReplies(name, deliver)
	if err != nil {
		return nil, err
	}
	return &memReplies{t: t, address: name, sub: s}, nil
}

// subscribeReplies creates the pseudo-queue name and consumes it, settling
// each message as it is taken.
func (t *memTransport) subscribeReplies(name string, deliver func(Delivery)) (*memSub, error) {
	if err := t.b.addReplyQueue(name); err != nil {
		return nil, err
	}
	s, err := t.b.subscribe(name, ConsumeSpec{}, func(d Delivery) {
		_ = d.Ack()
		deliver(d)
	})
	if err == nil {
		err = t.adopt(s)
	}
	return s, err
}

// addReplyQueue creates an auto-delete pseudo-queue, deleted with its consumer.
func (b *memBroker) addReplyQueue(name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, err := newMemQueue(b, name, QueueSpec{AutoDelete: true, Exclusive: true})
	if err != nil {
		return err
	}
	b.queues[name] = q
	return nil
}

// memReplies is one memory reply channel. Safe for concurrent use.
type memReplies struct {
	t       *memTransport
	address string
	sub     *memSub
}

// Address returns the pseudo-queue's name.
func (r *memReplies) Address() string { return r.address }

// Publish publishes msg addressed to the pseudo-queue.
func (r *memReplies) Publish(ctx context.Context, exchange, key string, msg Outbound) (PublishResult, error) {
	return r.t.Publish(ctx, exchange, key, StampReplyAddress(msg, r.address))
}

// Close removes the pseudo-queue and its consumer. Idempotent.
func (r *memReplies) Close() error { return r.sub.Close() }
