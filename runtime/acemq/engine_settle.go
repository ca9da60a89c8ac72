package acemq

import (
	"context"
	"errors"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// hopTimeout bounds an engine republish (retry, dead letter, park), which
// is detached from the consumer's cancellation so a drain can still finish it.
const hopTimeout = 30 * time.Second

// settle carries out p, tells OnSettled and the outcome hooks, and only then
// settles the delivery with the broker, and returns how. A stream record is
// left for its reader to ack (stream_read.go).
func (c *Consumer) settle(ctx context.Context, d driver.Delivery, cc *ConsumeContext, slot *settleSlot, p plan) disposition {
	how := c.execute(d, &p)
	c.announce(ctx, cc, slot, p)
	if c.cfg.stream != nil {
		return how
	}
	if err := how.apply(d); err != nil {
		c.conn.cfg.logger.Warn("acemq: cannot settle a message with the broker",
			"queue", c.queue, "message", p.env.ID, "outcome", p.outcome, "error", err)
	}
	return how
}

// announce tells OnSettled, the outcome hooks and the observer what became
// of a delivery.
func (c *Consumer) announce(ctx context.Context, cc *ConsumeContext, slot *settleSlot, p plan) {
	s := p.settlement(c.queue)
	if slot.fn != nil {
		runHook(ctx, c.conn.cfg.logger, "settled", func() { slot.fn(s) })
	}
	c.conn.runConsumeHooks(ctx, cc, s)
	c.observeSettled(p)
}

// disposition is how a delivery is settled with the broker once the engine
// has done what its plan says.
type disposition int

const (
	settleAck     disposition = iota // acknowledge: handled, or moved elsewhere
	settleRequeue                    // nack, back to the queue: attempt unspent
	settleDrop                       // nack without requeue: the broker dead-letters it
)

// apply settles d as the disposition says.
func (how disposition) apply(d driver.Delivery) error {
	switch how {
	case settleRequeue:
		return d.Nack(true)
	case settleDrop:
		return d.Nack(false)
	}
	return d.Ack()
}

// execute republishes what p says and returns how to settle the delivery.
func (c *Consumer) execute(d driver.Delivery, p *plan) disposition {
	switch {
	case p.target == "":
		return settleAck
	case p.action == ActionRetried, p.action == ActionInProgress:
		return c.executeRetry(d, p)
	}
	err := c.republishFitting(d, p)
	if err == nil {
		c.setAsideBackoff.Store(0)
		return settleAck
	}
	return c.setAsideFailed(d, p, err)
}

// unroutable reports whether a set-aside failed because its queue does not
// exist (an operator deleted it), rather than because it could not be
// confirmed (a cluster node down, the connection lost).
func unroutable(err error) bool {
	var failed *PublishFailedError
	return errors.As(err, &failed) && failed.Unroutable
}

// executeRetry waits (in the consumer, or not at all for a rung) and
// republishes the next attempt, or for InProgress the same one. A missing
// rung falls back to waiting in the consumer; a retry that cannot be
// republished returns the message to its queue with its attempt unspent.
func (c *Consumer) executeRetry(d driver.Delivery, p *plan) disposition {
	if !c.wait(p.wait) {
		return settleRequeue
	}
	err := c.republish(d, p.target, p.env)
	if errors.As(err, new(*FrameTooLargeError)) {
		return c.parkUnretriable(d, p, err)
	}
	if err != nil && p.rung {
		err = c.retryInConsumer(d, p, err)
	}
	if err != nil {
		c.conn.cfg.logger.Error("acemq: cannot republish a retry; returning it to the queue",
			"queue", c.queue, "message", p.env.ID, "error", err)
		return settleRequeue
	}
	return settleAck
}

// retryInConsumer is the fallback for a missing rung: wait in the consumer,
// then republish to the queue itself.
func (c *Consumer) retryInConsumer(d driver.Delivery, p *plan, rungErr error) error {
	c.conn.cfg.logger.Warn("acemq: a retry rung is missing; waiting in the consumer",
		"queue", c.queue, "rung", p.target, "error", rungErr)
	c.conn.cfg.observer.Count(semconv.MetricRetryRungMissing, 1, semconv.Labels{semconv.LabelQueue: c.queue, semconv.LabelRung: p.target})
	p.wait = c.cfg.retry.jitter(p.delay)
	p.target, p.rung, p.delay = c.queue, false, p.wait
	if !c.wait(p.wait) {
		return errStopped
	}
	return c.republish(d, p.target, p.env)
}

// errStopped ends a retry wait cut short by the consumer stopping.
var errStopped = errors.New("acemq: the consumer stopped during the retry wait")

// wait sleeps for d unless the consumer stops first; it reports whether the
// whole wait passed.
func (c *Consumer) wait(d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-c.stopping:
		return false
	case <-c.handlerCtx.Done():
		return false
	}
}

// republish sends the delivery's bytes, with env, to queue through the
// default exchange, mandatory: the engine's library hop.
func (c *Consumer) republish(d driver.Delivery, queue string, env Envelope) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.handlerCtx), hopTimeout)
	defer cancel()
	out := driver.Outbound{
		Body: d.Body, ContentType: d.ContentType, MessageID: env.ID, Headers: env.ToWire(),
		ReplyTo: d.ReplyTo, CorrelationID: d.CorrelationID, Persistent: true, Mandatory: true,
	}
	res, err := c.conn.PublishRaw(ctx, "", queue, out)
	if err != nil {
		return &PublishFailedError{MessageID: env.ID, RoutingKey: queue, Err: err}
	}
	if !res.Routed {
		return &PublishFailedError{MessageID: env.ID, RoutingKey: queue, Unroutable: true, Err: returnReason(res.ReturnReason)}
	}
	return nil
}
