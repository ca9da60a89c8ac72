package acemq

import (
	"context"
	"fmt"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// The back-off of a message the engine could not set aside and returned to
// its queue: it waits setAsideMinBackoff before the nack, doubling with every
// further failure of the consumer up to setAsideMaxBackoff, so that a
// set-aside queue that stays missing does not make the message spin; a
// set-aside that succeeds resets it.
const (
	setAsideMinBackoff = 200 * time.Millisecond
	setAsideMaxBackoff = 30 * time.Second
)

// setAsideFailed handles a set-aside that err prevented. A set-aside queue
// that no longer exists (unroutable: an operator deleted it) is declared
// again as the consumer declared it and the set-aside tried once more. A
// message that still cannot be set aside is kept: returned to its queue
// after a back-off, its settlement saying so (ActionKept) and the failure
// logged; it is never nacked to a dead-letter exchange that may route it
// nowhere.
func (c *Consumer) setAsideFailed(d driver.Delivery, p *plan, err error) disposition {
	c.conn.cfg.observer.Count(semconv.MetricSetAsideFailed, 1, semconv.Labels{semconv.LabelQueue: c.queue, semconv.LabelTarget: p.target})
	if unroutable(err) {
		if err = c.setAsideAgain(d, p); err == nil {
			c.setAsideBackoff.Store(0)
			return settleAck
		}
	}
	c.keep(p, err)
	c.wait(c.nextSetAsideBackoff())
	return settleRequeue
}

// setAsideAgain declares the consumer's topology again (acemq.dlx, its
// {queue}.dlq and {queue}.parked, its rungs) and republishes to p.target.
func (c *Consumer) setAsideAgain(d driver.Delivery, p *plan) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.handlerCtx), hopTimeout)
	defer cancel()
	if err := consumerTopology(c.queue, c.cfg.retry, c.cfg.setAside).applyTo(ctx, c.conn); err != nil {
		return fmt.Errorf("acemq: set-aside queue %q is missing and cannot be declared again: %w", p.target, err)
	}
	if err := c.republish(d, p.target, p.env); err != nil {
		return err
	}
	c.conn.cfg.logger.Warn("acemq: a set-aside queue was missing; declared it again and set the message aside",
		"queue", c.queue, "target", p.target, "message", p.env.ID)
	return nil
}

// keep turns p into the plan of a message returned to its queue because it
// could not be set aside, and logs why.
func (c *Consumer) keep(p *plan, err error) {
	c.conn.cfg.logger.Error("acemq: cannot set a message aside; returning it to its queue",
		"queue", c.queue, "target", p.target, "message", p.env.ID, "was", p.action, "reason", p.reason, "error", err)
	p.reason = fmt.Sprintf("could not be %s to %q (%v); kept on its queue: %s", p.action, p.target, err, p.reason)
	p.action, p.outcome = ActionKept, semconv.OutcomeKept
}

// nextSetAsideBackoff returns the wait before returning a message that could
// not be set aside, and doubles the next one.
func (c *Consumer) nextSetAsideBackoff() time.Duration {
	for {
		prev := time.Duration(c.setAsideBackoff.Load())
		next := min(max(2*prev, setAsideMinBackoff), setAsideMaxBackoff)
		if c.setAsideBackoff.CompareAndSwap(int64(prev), int64(next)) {
			return next
		}
	}
}
