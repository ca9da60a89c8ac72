package acemq

import (
	"context"
	"fmt"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// handle runs one delivery through the engine:
//
//	interceptors → header rules → decode → handler → plan → settle
func (c *Consumer) handle(d driver.Delivery) {
	observed := c.conn.observing()
	if observed {
		c.observeInFlight(c.running.Add(1))
		defer func() { c.observeInFlight(c.running.Add(-1)) }()
	} else {
		c.running.Add(1)
		defer c.running.Add(-1)
	}
	if c.cfg.stream != nil {
		c.handleRecord(d)
		return
	}
	f := c.newInFlight(d)
	p := c.plan(f, d, &f.cc)
	c.settle(f, d, &f.cc, &f.slot, p)
}

// inFlight is what the engine keeps of one delivery, allocated once: the
// handler's context (the consumer's, carrying the delivery's OnSettled
// slot), the envelope read from the headers and the interceptors' view.
type inFlight struct {
	context.Context
	slot  settleSlot
	env   Envelope
	cc    ConsumeContext
	hooks [hookRoom]func(context.Context, Settlement) // cc.hooks' first backing array
}

// newInFlight reads d's envelope and makes its context.
func (c *Consumer) newInFlight(d driver.Delivery) *inFlight {
	f := &inFlight{Context: c.handlerCtx, env: EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)}
	f.env.adoptReplyProperties(d) // request/reply (reply.go)
	f.cc = ConsumeContext{Queue: c.queue, Envelope: &f.env, Body: d.Body, ContentType: d.ContentType, Redelivered: d.Redelivered, hooks: f.hooks[:0]}
	return f
}

// Value returns the delivery's settle slot for settleKey, and the consumer
// context's values otherwise (context.WithValue without its allocation).
func (f *inFlight) Value(key any) any {
	if _, ok := key.(settleKey); ok {
		return &f.slot
	}
	return f.Context.Value(key)
}

// plan decides what becomes of a delivery.
func (c *Consumer) plan(ctx context.Context, d driver.Delivery, cc *ConsumeContext) plan {
	if reason, refused := headersRefused(d.Headers); refused {
		return c.setAside(*cc.Envelope, ParkedQueue(c.queue), ActionParked, semconv.OutcomeParked, "could not be decoded: "+reason)
	}
	env, err := c.intercept(ctx, cc)
	if err != nil {
		return c.setAside(env, DeadLetterQueue(c.queue), ActionDeadLettered, semconv.OutcomeDeadLettered,
			"an interceptor refused it: "+reasonOf(err))
	}
	if reason, broken := c.cfg.headers.consumeReason(env.Headers); broken {
		return c.setAside(env, DeadLetterQueue(c.queue), ActionDeadLettered, semconv.OutcomeDeadLettered, reason)
	}
	if reason, foreign := c.foreignType(d, env); foreign {
		return c.setAside(env, ParkedQueue(c.queue), ActionParked, semconv.OutcomeParked, reason)
	}
	start := time.Now()
	ack, err := c.process(ctx, inbound{
		env: env, body: cc.Body, contentType: cc.ContentType, routingKey: d.RoutingKey, redelivered: d.Redelivered,
		queue: c.queue, stream: cc.stream,
	})
	if err != nil {
		return c.planUndecoded(env, err)
	}
	p := c.planFor(env, ack)
	p.handled = time.Since(start)
	return p
}

// planUndecoded parks a body that can never decode (a fatal codec error, or
// a content type no codec claims); a decode that failed for a passing reason
// — a schema registry that could not be reached, say — goes round the retry
// policy like a handler's Retry.
func (c *Consumer) planUndecoded(env Envelope, err error) plan {
	if !IsFatal(err) {
		return c.planRetry(env, err)
	}
	return c.setAside(env, ParkedQueue(c.queue), ActionParked, semconv.OutcomeParked, "could not be decoded: "+reasonOf(err))
}

// intercept runs the consume chain and returns the envelope it leaves.
func (c *Consumer) intercept(ctx context.Context, cc *ConsumeContext) (Envelope, error) {
	if len(c.conn.cfg.consInts) == 0 {
		return *cc.Envelope, nil
	}
	original := *cc.Envelope
	err := c.conn.runConsumeChain(ctx, cc)
	if cc.Envelope == nil {
		cc.Envelope = &original
	}
	return *cc.Envelope, err
}

// reasonOf renders an error as a dead-letter reason.
func reasonOf(err error) string {
	if err == nil {
		return "no reason given"
	}
	return err.Error()
}

// plan is the engine's decision for one delivery.
type plan struct {
	action  string
	outcome string
	env     Envelope      // the envelope settled with (next attempt, or carrying the reason)
	target  string        // queue republished to through the default exchange; "" for none
	rung    bool          // target is a broker retry rung
	reason  string        // dead-letter or park reason
	delay   time.Duration // the retry delay reported
	wait    time.Duration // the in-process wait before the retry republish
	handled time.Duration // how long decode and handler took; 0 when the handler did not run
}

// settlement renders the plan for OnSettled and the outcome hooks.
func (p plan) settlement(queue string) Settlement {
	return Settlement{Queue: queue, Action: p.action, Outcome: p.outcome, Envelope: p.env, Delay: p.delay, Reason: p.reason}
}

// setAside plans a republish to a dead-letter or parked queue with reason.
func (c *Consumer) setAside(env Envelope, target, action, outcome, reason string) plan {
	env.Error = reason
	return plan{action: action, outcome: outcome, env: env, target: target, reason: reason}
}

// planFor turns the handler's Ack into a plan.
func (c *Consumer) planFor(env Envelope, ack Ack) plan {
	switch ack.kind {
	case ackAccept:
		return plan{action: ActionAccepted, outcome: semconv.OutcomeAcked, env: env}
	case ackReject:
		return c.setAside(env, DeadLetterQueue(c.queue), ActionDeadLettered, semconv.OutcomeRejected,
			"the handler rejected it: "+reasonOf(ack.err))
	case ackPark:
		return c.setAside(env, ParkedQueue(c.queue), ActionParked, semconv.OutcomeParked,
			"the handler parked it: "+reasonOf(ack.err))
	case ackInProgress:
		return c.inProgressPlan(env, ack.delay)
	}
	return c.planRetry(env, ack.err)
}

// inProgressPlan plans the republish of env, attempt unchanged, to the queue
// itself after an exact wait in the consumer: another consumer holds the
// message's claim, so nothing is spent and nothing is dead-lettered.
func (c *Consumer) inProgressPlan(env Envelope, delay time.Duration) plan {
	return plan{action: ActionInProgress, outcome: semconv.OutcomeInProgress, env: env, target: c.queue, delay: delay, wait: delay}
}

// planRetry applies the retry policy: give up (dead-letter) or retry after a
// wait in the broker (rung) or in the consumer.
func (c *Consumer) planRetry(env Envelope, err error) plan {
	pol := c.cfg.retry
	dlq := DeadLetterQueue(c.queue)
	switch {
	case IsFatal(err):
		return c.setAside(env, dlq, ActionDeadLettered, semconv.OutcomeDeadLettered,
			"the handler reported an unprocessable message: "+reasonOf(err))
	case env.Attempt >= pol.MaxAttempts:
		return c.setAside(env, dlq, ActionDeadLettered, semconv.OutcomeDeadLettered,
			fmt.Sprintf("exhausted %s: %s", attempts(env.Attempt), reasonOf(err)))
	case !pol.Retries(env.Attempt, env.Age()):
		return c.setAside(env, dlq, ActionDeadLettered, semconv.OutcomeDeadLettered,
			fmt.Sprintf("exceeded the maximum message age of %s: %s", pol.MaxMessageAge, reasonOf(err)))
	}
	return c.retryPlan(env, pol.delayAfter(env.Attempt))
}

// retryPlan plans the republish of env's next attempt after delay.
func (c *Consumer) retryPlan(env Envelope, delay time.Duration) plan {
	pol := c.cfg.retry
	next := env.NextAttempt()
	next.Error = ""
	p := plan{action: ActionRetried, outcome: semconv.OutcomeRetried, env: next, delay: delay}
	if pol.waitsInBroker(delay) {
		p.target, p.rung = RungQueue(c.queue, pol.rungFor(delay)), true
		return p
	}
	p.wait = pol.jitter(delay)
	p.target, p.delay = c.queue, p.wait
	return p
}

// attempts spells a count of attempts: "1 attempt", "3 attempts".
func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}
