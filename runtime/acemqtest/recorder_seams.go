package acemqtest

import (
	"context"
	"fmt"
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// The optional transport seams (every interface runtime/acemq documents as
// "an optional Transport seam"; TestRecorderPassesOnEverySeam finds them in
// its source). A Recorder implements each of them so that a Conn on it keeps
// what the wrapped transport can do: it passes the call on when the wrapped
// transport implements the seam, and otherwise answers as described on each
// method.

var (
	_ driver.QueueInspector     = (*Recorder)(nil)
	_ driver.Puller             = (*Recorder)(nil)
	_ driver.BlockedReporter    = (*Recorder)(nil)
	_ driver.ReplyTransport     = (*Recorder)(nil)
	_ driver.CapabilityReporter = (*Recorder)(nil)
	_ driver.QueueChecker       = (*Recorder)(nil)
	_ driver.QueueDeleter       = (*Recorder)(nil)
	_ driver.AsyncPublisher     = (*Recorder)(nil)
)

// PublishAsync passes the call to the wrapped transport when it is an
// driver.AsyncPublisher (memory:// and RabbitMQ's are), so SendAll through a
// Recorder writes its messages in payload order from one goroutine, as it
// does without one. Otherwise it publishes through the wrapped transport's
// Publish before it returns, and the Confirmation holds the answer (SendAll
// then publishes one message at a time, in payload order). Either way the
// publish is recorded once its outcome is known: a write that failed at once,
// or the first Wait on its Confirmation (SendAll waits in payload order).
func (r *Recorder) PublishAsync(ctx context.Context, exchange, key string, msg driver.Outbound) (driver.Confirmation, error) {
	ap, ok := r.inner.(driver.AsyncPublisher)
	if !ok {
		return driver.ConfirmationOf(r.Publish(ctx, exchange, key, msg)), nil
	}
	kept := cloneOutbound(msg) // as the transport was given it
	conf, err := ap.PublishAsync(ctx, exchange, key, msg)
	if err != nil {
		r.record(exchange, key, kept, acemq.PublishResult{}, err)
		return nil, err
	}
	return &recordedConfirmation{r: r, exchange: exchange, key: key, msg: kept, conf: conf}, nil
}

// recordedConfirmation records its publish with the first outcome Wait
// returns. Safe for concurrent use.
type recordedConfirmation struct {
	r             *Recorder
	exchange, key string
	msg           driver.Outbound
	conf          driver.Confirmation
	once          sync.Once
}

func (c *recordedConfirmation) Wait(ctx context.Context) (acemq.PublishResult, error) {
	res, err := c.conf.Wait(ctx)
	c.once.Do(func() { c.r.record(c.exchange, c.key, c.msg, res, err) })
	return res, err
}

// Supports passes the call to the wrapped transport when it is an
// driver.CapabilityReporter, and reports false otherwise.
func (r *Recorder) Supports(c driver.Capability) bool {
	cr, ok := r.inner.(driver.CapabilityReporter)
	return ok && cr.Supports(c)
}

// QueueExists passes the call to the wrapped transport when it is an
// driver.QueueChecker (memory:// is), and fails otherwise.
func (r *Recorder) QueueExists(ctx context.Context, name string) (bool, error) {
	qc, ok := r.inner.(driver.QueueChecker)
	if !ok {
		return false, fmt.Errorf("acemq: a %T cannot tell whether a queue exists", r.inner)
	}
	return qc.QueueExists(ctx, name)
}

// DeleteQueue passes the call to the wrapped transport when it is an
// driver.QueueDeleter (memory:// is), and fails otherwise.
func (r *Recorder) DeleteQueue(ctx context.Context, name string) error {
	qd, ok := r.inner.(driver.QueueDeleter)
	if !ok {
		return fmt.Errorf("acemq: a %T cannot delete a queue", r.inner)
	}
	return qd.DeleteQueue(ctx, name)
}

// MessageCount passes the call to the wrapped transport when it is an
// driver.QueueInspector (memory:// is), and fails otherwise.
func (r *Recorder) MessageCount(ctx context.Context, queue string) (int, error) {
	qi, ok := r.inner.(driver.QueueInspector)
	if !ok {
		return 0, fmt.Errorf("acemq: a %T cannot count the messages of a queue", r.inner)
	}
	return qi.MessageCount(ctx, queue)
}

// Pull passes the call to the wrapped transport when it is an driver.Puller
// (memory:// is), and fails otherwise.
func (r *Recorder) Pull(ctx context.Context, queue string) (driver.Delivery, bool, error) {
	p, ok := r.inner.(driver.Puller)
	if !ok {
		return driver.Delivery{}, false, fmt.Errorf("acemq: a %T cannot pull a message from a queue", r.inner)
	}
	return p.Pull(ctx, queue)
}

// Hold passes the call to the wrapped transport when it is an driver.Holder
// (memory:// and RabbitMQ's are), and fails otherwise. Messages taken from
// the hold are not recorded: they are deliveries, not publishes.
func (r *Recorder) Hold(ctx context.Context, queue string) (driver.HeldQueue, error) {
	h, ok := r.inner.(driver.Holder)
	if !ok {
		return nil, fmt.Errorf("acemq: a %T cannot hold messages of a queue", r.inner)
	}
	return h.Hold(ctx, queue)
}

// Blocked passes the call to the wrapped transport when it is an
// driver.BlockedReporter, and reports "never blocked" otherwise (so a Conn on
// a Recorder always knows whether it is blocked).
func (r *Recorder) Blocked() (string, bool) {
	if br, ok := r.inner.(driver.BlockedReporter); ok {
		return br.Blocked()
	}
	return "", false
}

// OpenReplies opens the wrapped transport's reply channel when it is an
// driver.ReplyTransport (memory:// and RabbitMQ's are), and otherwise an
// exclusive, auto-delete acemq-reply-<uuid> queue consumed on the wrapped
// transport, as a requester would. Requests published through the channel
// are recorded, with ReplyTo set to the channel's address.
func (r *Recorder) OpenReplies(ctx context.Context, deliver func(driver.Delivery)) (driver.ReplyChannel, error) {
	if rt, ok := r.inner.(driver.ReplyTransport); ok {
		rc, err := rt.OpenReplies(ctx, deliver)
		if err != nil {
			return nil, err
		}
		return &recordedReplies{r: r, rc: rc}, nil
	}
	return r.openQueueReplies(ctx, deliver)
}

// openQueueReplies declares a private reply queue on the wrapped transport
// and consumes it, settling each reply before deliver sees it.
func (r *Recorder) openQueueReplies(ctx context.Context, deliver func(driver.Delivery)) (driver.ReplyChannel, error) {
	name := "acemq-reply-" + acemq.NewUUID()
	if err := r.inner.DeclareQueue(ctx, name, driver.QueueSpec{Exclusive: true, AutoDelete: true}); err != nil {
		return nil, fmt.Errorf("acemq: cannot declare the reply queue %q: %w", name, err)
	}
	sub, err := r.inner.Consume(ctx, name, driver.ConsumeSpec{}, func(d driver.Delivery) {
		_ = d.Ack()
		deliver(d)
	})
	if err != nil {
		return nil, fmt.Errorf("acemq: cannot consume the reply queue %q: %w", name, err)
	}
	return &queueReplies{r: r, name: name, sub: sub}, nil
}

// recordedReplies is the wrapped transport's reply channel with its
// publishes recorded. Safe for concurrent use.
type recordedReplies struct {
	r  *Recorder
	rc driver.ReplyChannel
}

func (c *recordedReplies) Address() string { return c.rc.Address() }

func (c *recordedReplies) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	done := c.r.begin()
	defer done()
	res, err := c.rc.Publish(ctx, exchange, key, msg)
	c.r.record(exchange, key, driver.StampReplyAddress(msg, c.rc.Address()), res, err)
	return res, err
}

func (c *recordedReplies) Close() error { return c.rc.Close() }

// queueReplies is a reply channel on a queue: requests are published through
// the Recorder, naming the queue. Safe for concurrent use.
type queueReplies struct {
	r    *Recorder
	name string
	sub  driver.Subscription
}

func (q *queueReplies) Address() string { return q.name }

func (q *queueReplies) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	return q.r.Publish(ctx, exchange, key, driver.StampReplyAddress(msg, q.name))
}

func (q *queueReplies) Close() error { return q.sub.Close() }

// ReleasesHeaders passes the question on to the wrapped transport
// (driver.HeadersReleaser): the Recorder records copies of what it is
// given, so it keeps nothing of a message's headers itself. False when the
// wrapped transport is not a HeadersReleaser.
func (r *Recorder) ReleasesHeaders() bool {
	hr, ok := r.inner.(driver.HeadersReleaser)
	return ok && hr.ReleasesHeaders()
}
