package patterns

import (
	"context"
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// openReplies starts receiving replies for one requester: on the named
// queue of ReplyTo, else through the transport's direct reply-to, else on an
// exclusive, auto-delete acemq-reply-<uuid> queue. deliver gets each reply
// already settled.
func openReplies(ctx context.Context, conn *acemq.Conn, cfg requesterConfig, deliver func(driver.Delivery)) (driver.ReplyChannel, error) {
	if cfg.replyTo != "" {
		return openQueueReplies(ctx, conn, cfg.replyTo, deliver)
	}
	if rt, ok := conn.Transport().(driver.ReplyTransport); ok {
		rc, err := rt.OpenReplies(ctx, deliver)
		if err != nil {
			return nil, fmt.Errorf("acemq: cannot open a reply channel: %w", err)
		}
		return rc, nil
	}
	return openQueueReplies(ctx, conn, "", deliver)
}

// openQueueReplies declares the reply queue (named: durable; unnamed: an
// exclusive, auto-delete acemq-reply-<uuid>) and consumes it.
func openQueueReplies(ctx context.Context, conn *acemq.Conn, name string, deliver func(driver.Delivery)) (driver.ReplyChannel, error) {
	name, opts := replyQueue(name)
	if err := conn.DeclareQueue(ctx, name, opts...); err != nil {
		return nil, err
	}
	sub, err := conn.Transport().Consume(ctx, name, driver.ConsumeSpec{}, func(d driver.Delivery) {
		_ = d.Ack()
		deliver(d)
	})
	if err != nil {
		return nil, fmt.Errorf("acemq: cannot consume the reply queue %q: %w", name, err)
	}
	return &queueReplies{conn: conn, name: name, sub: sub}, nil
}

// queueReplies is a reply channel on a queue: requests are published the
// ordinary way, naming the queue. Safe for concurrent use.
type queueReplies struct {
	conn *acemq.Conn
	name string
	sub  driver.Subscription
}

func (q *queueReplies) Address() string { return q.name }

func (q *queueReplies) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	return q.conn.PublishRaw(ctx, exchange, key, driver.StampReplyAddress(msg, q.name))
}

func (q *queueReplies) Close() error { return q.sub.Close() }

// replyQueue names and shapes a reply queue: a named one as DeclareQueue
// does by default, else a transient, exclusive, auto-delete acemq-reply-<uuid>.
func replyQueue(name string) (string, []acemq.QueueOption) {
	if name != "" {
		return name, nil
	}
	return "acemq-reply-" + acemq.NewUUID(), []acemq.QueueOption{acemq.Transient(), acemq.Exclusive(), acemq.AutoDelete()}
}
