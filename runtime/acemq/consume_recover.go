package acemq

import (
	"context"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// The back-off of a consumer that consumes again after the broker cancelled
// it (its queue deleted): the first retry after resubscribeMinDelay, then
// doubling up to resubscribeMaxDelay, until the consumer is closed.
const (
	resubscribeMinDelay = 100 * time.Millisecond
	resubscribeMaxDelay = 10 * time.Second
	resubscribeTimeout  = 30 * time.Second
)

// consume starts a transport subscription of the consumer's queue that
// reports a cancel by the broker to brokerCancelled.
func (c *Consumer) consume(ctx context.Context) (driver.Subscription, error) {
	spec := c.streamSpec(driver.ConsumeSpec{Prefetch: c.cfg.prefetch, Tag: c.cfg.tag, Args: c.cfg.args, OnCancel: c.brokerCancelled})
	return c.conn.transport.Consume(ctx, c.queue, spec, c.deliver)
}

// currentSub returns the running subscription.
func (c *Consumer) currentSub() driver.Subscription {
	c.subMu.Lock()
	defer c.subMu.Unlock()
	return c.sub
}

// Interrupted returns why the consumer receives nothing for now (the broker
// cancelled it: its queue was deleted) while it declares the queue again and
// consumes again; nil while it consumes. Safe for concurrent use.
func (c *Consumer) Interrupted() error {
	c.subMu.Lock()
	defer c.subMu.Unlock()
	return c.interruption
}

// brokerCancelled is the transport's OnCancel: the broker stopped the
// subscription (its queue deleted). The consumer reports it (log, Health)
// and consumes again in the background.
func (c *Consumer) brokerCancelled(reason error) {
	if c.isStopping() {
		return
	}
	c.subMu.Lock()
	c.interruption = reason
	c.subMu.Unlock()
	c.conn.cfg.logger.Warn("acemq: the broker cancelled a consumer (its queue was deleted?); declaring the queue again and consuming again",
		"queue", c.queue, "reason", reason)
	go c.resubscribe()
}

// resubscribe declares the queue again when it was declared through the
// connection (with its bindings), then the consumer's own topology, and
// consumes again, retrying with back-off until it succeeds or the consumer
// stops.
func (c *Consumer) resubscribe() {
	delay := resubscribeMinDelay
	for c.wait(delay) {
		sub, err := c.resubscribeOnce()
		if err == nil {
			c.resumed(sub)
			return
		}
		c.conn.cfg.logger.Warn("acemq: cannot consume again yet; retrying",
			"queue", c.queue, "retryIn", min(2*delay, resubscribeMaxDelay), "error", err)
		delay = min(2*delay, resubscribeMaxDelay)
	}
}

// resubscribeOnce makes one attempt of resubscribe.
func (c *Consumer) resubscribeOnce() (driver.Subscription, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.handlerCtx), resubscribeTimeout)
	defer cancel()
	if q, owned := c.conn.declared.owned(c.queue); owned {
		if err := q.redeclare(ctx, c.conn.transport); err != nil {
			return nil, err
		}
	}
	if err := consumerTopology(c.queue, c.cfg.retry, c.cfg.setAside).applyTo(ctx, c.conn); err != nil {
		return nil, err
	}
	return c.consume(ctx)
}

// resumed installs sub in place of the cancelled subscription, which it
// releases, unless the consumer stopped meanwhile.
func (c *Consumer) resumed(sub driver.Subscription) {
	c.subMu.Lock()
	old, stopping := c.sub, c.isStopping()
	if !stopping {
		c.sub, c.interruption = sub, nil
	}
	c.subMu.Unlock()
	if stopping {
		_ = sub.Close()
		return
	}
	_ = old.Close()
	c.conn.cfg.logger.Info("acemq: consuming again after the broker cancelled the consumer", "queue", c.queue)
}
