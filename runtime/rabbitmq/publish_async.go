package rabbitmq

import (
	"context"
	"errors"
	"fmt"
	"sync"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// The transport is an acemq.AsyncPublisher: acemq's SendAll writes a whole
// batch from one goroutine, then waits for the confirms.
var _ acemq.AsyncPublisher = (*Transport)(nil)

// PublishAsync writes msg as Publish does (on the same channel, in the order
// of the calls, waiting as long as ctx allows for a blocked or recovering
// connection and for a MaxOutstandingPublishes slot) and returns without
// waiting for the broker's confirm; the Confirmation's Wait returns what
// Publish would have: Routed false with the broker's reason for a returned
// mandatory message, ErrBrokerRefused for a nack, ErrConfirmLost when the
// channel or connection closed first. The message's slot is given back when
// its confirm arrives, whether or not anyone waits for it. With
// WithoutConfirms, a message that is not mandatory is settled once written.
// Safe for concurrent use.
func (t *Transport) PublishAsync(ctx context.Context, exchange, key string, msg acemq.Outbound) (acemq.Confirmation, error) {
	pm, err := toPublishing(msg)
	if err != nil {
		return nil, err
	}
	if err := t.waitUnblocked(ctx); err != nil {
		return nil, err
	}
	l, confirmed := t.laneFor(msg)
	if !confirmed {
		res, err := t.publishUnconfirmed(ctx, exchange, key, msg, pm)
		if err != nil {
			return nil, err
		}
		return acemq.ConfirmationOf(res, nil), nil
	}
	return t.publishPipelined(ctx, l, exchange, key, msg, pm)
}

// publishPipelined writes the message on lane l within the
// MaxOutstandingPublishes window and leaves its confirm to the Confirmation.
func (t *Transport) publishPipelined(ctx context.Context, l lane, exchange, key string, msg acemq.Outbound, pm amqp.Publishing) (acemq.Confirmation, error) {
	if err := t.window.acquire(ctx); err != nil {
		return nil, t.pausedOr(err)
	}
	p, dc, err := t.sendExpecting(ctx, l, exchange, key, msg, pm)
	if err != nil {
		t.window.release()
		return nil, err
	}
	t.window.releaseWhenDone(dc)
	return &confirmation{t: t, p: p, dc: dc, id: msg.MessageID, mandatory: msg.Mandatory}, nil
}

// sendExpecting is send that, for a mandatory message, sets its return aside
// (returnLog.expect) on the channel that carries it.
func (t *Transport) sendExpecting(ctx context.Context, l lane, exchange, key string, msg acemq.Outbound, pm amqp.Publishing) (*pubChannel, *amqp.DeferredConfirmation, error) {
	for {
		p, err := t.publisher(ctx, l)
		if err != nil {
			return nil, nil, err
		}
		if msg.Mandatory {
			p.returns.expect(msg.MessageID)
		}
		dc, err := p.ch.PublishWithDeferredConfirmWithContext(ctx, exchange, key, msg.Mandatory, false, pm)
		if err != nil && msg.Mandatory {
			p.returns.forget(msg.MessageID)
		}
		if !errors.Is(err, amqp.ErrClosed) {
			return p, dc, err
		}
	}
}

// confirmation is the pending outcome of one pipelined publish. Safe for
// concurrent use: the outcome is worked out once, by the first Wait that
// sees the confirm (or, after a Wait gave up, by a goroutine of its own).
type confirmation struct {
	t         *Transport
	p         *pubChannel
	dc        *amqp.DeferredConfirmation
	id        string
	mandatory bool
	once      sync.Once
	res       acemq.PublishResult
	err       error
}

// Wait waits for the broker's confirm as long as ctx allows.
func (c *confirmation) Wait(ctx context.Context) (acemq.PublishResult, error) {
	select {
	case <-c.dc.Done():
	default:
		select {
		case <-c.dc.Done():
		case <-ctx.Done():
			go c.settleWhenDone()
			return acemq.PublishResult{}, c.t.pausedOr(fmt.Errorf("stopped waiting for the broker's confirm; it may or may not have been delivered: %w", ctx.Err()))
		}
	}
	c.once.Do(c.settle)
	return c.res, c.err
}

// settleWhenDone settles the publish once its confirm arrives, so that a
// return set aside for it is claimed even when nobody waits any more.
func (c *confirmation) settleWhenDone() {
	<-c.dc.Done()
	c.once.Do(c.settle)
}

// settle works out the outcome of the confirmed (or nacked) publish.
func (c *confirmation) settle() {
	reason, returned := "", false
	if c.mandatory {
		reason, returned = c.p.returns.claim(c.id)
	}
	if !c.dc.Acked() {
		c.err = c.p.nackError()
		return
	}
	c.res = acemq.PublishResult{MessageID: c.id, Confirmed: true, Routed: !returned, ReturnReason: reason}
}

// slotReleaser gives back the window slots of pipelined publishes as their
// confirms arrive (or their channels close), in publish order: a slot whose
// confirm overtook an earlier one's waits for it. A goroutine runs while
// some are pending. Its zero value is ready; safe for concurrent use.
type slotReleaser struct {
	mu      sync.Mutex
	pending []*amqp.DeferredConfirmation
	running bool
}

// releaseWhenDone gives dc's slot back once dc is settled.
func (w *window) releaseWhenDone(dc *amqp.DeferredConfirmation) {
	r := &w.settled
	r.mu.Lock()
	r.pending = append(r.pending, dc)
	idle := !r.running
	r.running = true
	r.mu.Unlock()
	if idle {
		go w.releaseSettled()
	}
}

// releaseSettled releases each pending slot once its confirm arrives, until
// none is pending.
func (w *window) releaseSettled() {
	for dc := w.settled.next(false); dc != nil; dc = w.settled.next(true) {
		<-dc.Done()
		w.release()
	}
}

// next drops the head of the queue when done, and returns the new head, or
// nil (and stops running) when the queue is empty.
func (r *slotReleaser) next(done bool) *amqp.DeferredConfirmation {
	r.mu.Lock()
	defer r.mu.Unlock()
	if done {
		r.pending[0] = nil
		r.pending = r.pending[1:]
	}
	if len(r.pending) == 0 {
		r.pending, r.running = nil, false
		return nil
	}
	return r.pending[0]
}
