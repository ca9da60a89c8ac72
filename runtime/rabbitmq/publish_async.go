package rabbitmq

import (
	"context"
	"errors"
	"sync"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// The transport is an driver.AsyncPublisher: acemq's SendAll writes a whole
// batch from one goroutine, then waits for the confirms.
var _ driver.AsyncPublisher = (*Transport)(nil)

// PublishAsync writes msg as Publish does (on the same channel, in the order
// of the calls, waiting as long as ctx allows for a blocked or recovering
// connection and for a MaxOutstandingPublishes slot) and returns without
// waiting for the broker's confirm; the Confirmation's Wait returns what
// Publish would have: Routed false with the broker's reason for a returned
// mandatory message, ErrBrokerRefused for a nack, a *RefusedError when the
// broker closed the channel in answer to it, ErrConfirmLost when the channel
// or connection closed first for another reason, an *acemq.UnconfirmedError
// (acemq.ErrOutcomeUnknown) when Wait's ctx ends first. The message's slot
// is given back when its confirm arrives, whether or not anyone waits for
// it. With
// WithoutConfirms, a message that is not mandatory is settled once written.
// Safe for concurrent use.
func (t *Transport) PublishAsync(ctx context.Context, exchange, key string, msg driver.Outbound) (driver.Confirmation, error) {
	pm, err := t.publishing(msg)
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
		return driver.ConfirmationOf(res, nil), nil
	}
	return t.publishPipelined(ctx, l, exchange, key, msg, pm)
}

// publishPipelined writes the message on lane l within the
// MaxOutstandingPublishes window and leaves its confirm to the Confirmation.
func (t *Transport) publishPipelined(ctx context.Context, l lane, exchange, key string, msg driver.Outbound, pm amqp.Publishing) (driver.Confirmation, error) {
	c := &confirmation{t: t, r: resender{t: t}, lane: l, exchange: exchange, key: key, msg: msg,
		turn: make(chan struct{}, 1), done: make(chan struct{})}
	if err := c.write(ctx, pm); err != nil {
		return nil, err
	}
	return c, nil
}

// sendExpecting is send that, for a mandatory message, sets its return aside
// (returnLog.expect) on the channel that carries it.
func (t *Transport) sendExpecting(ctx context.Context, l lane, exchange, key string, msg driver.Outbound, pm amqp.Publishing) (*pubChannel, *amqp.DeferredConfirmation, error) {
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
		if err == nil || !t.lostInWrite(ctx, p, err) {
			return p, dc, err
		}
	}
}

// confirmation is the pending outcome of one pipelined publish, sent again
// (same message id) when its confirm was lost with the connection or it was
// nacked, as Publish does. Safe for concurrent use: one Wait at a time
// drives it (holding turn), others wait for done; a driving Wait whose ctx
// ends hands the driving to a goroutine of its own, so the message is sent
// again even when nobody waits any more.
type confirmation struct {
	t        *Transport
	r        resender
	lane     lane
	exchange string
	key      string
	msg      driver.Outbound // its amqp.Publishing is made again for a resend, not kept
	turn     chan struct{}   // held by the one driving
	done     chan struct{}   // closed once res and err are final

	p       *pubChannel // the channel of the latest attempt (driver's)
	dc      *amqp.DeferredConfirmation
	rewrite bool // the latest attempt failed and is to be sent again
	res     acemq.PublishResult
	err     error
}

// write sends one attempt, pm, within the window, waiting as long as ctx
// allows.
func (c *confirmation) write(ctx context.Context, pm amqp.Publishing) error {
	if err := c.t.window.acquire(ctx); err != nil {
		return c.t.pausedOr(err)
	}
	p, dc, err := c.t.sendExpecting(ctx, c.lane, c.exchange, c.key, c.msg, pm)
	if err != nil {
		c.t.window.release()
		return err
	}
	c.t.window.releaseWhenDone(dc)
	c.p, c.dc = p, dc
	return nil
}

// Wait waits for the broker's confirm as long as ctx allows.
func (c *confirmation) Wait(ctx context.Context) (acemq.PublishResult, error) {
	select {
	case <-c.done:
		return c.res, c.err
	default:
	}
	select {
	case <-c.done:
	case c.turn <- struct{}{}:
		finished := c.drive(ctx)
		<-c.turn
		if !finished {
			go c.driveAlone()
			return acemq.PublishResult{}, c.stopped(ctx)
		}
	case <-ctx.Done():
		return acemq.PublishResult{}, c.stopped(ctx)
	}
	return c.res, c.err
}

func (c *confirmation) stopped(ctx context.Context) error {
	return c.t.unconfirmed(ctx.Err())
}

// driveAlone drives the publish to its outcome after a Wait gave up, so
// that it is sent again and its return claimed even when nobody waits.
func (c *confirmation) driveAlone() {
	select {
	case <-c.done:
	case c.turn <- struct{}{}:
		c.drive(context.Background())
		<-c.turn
	}
}

// drive waits for the latest attempt's confirm and sends the message again
// while the resender says so; it reports false when ctx ended first (the
// outcome still open, perhaps with a resend still to write).
func (c *confirmation) drive(ctx context.Context) bool {
	for {
		select {
		case <-c.done:
			return true
		default:
		}
		if c.rewrite {
			if err := c.writeAgain(ctx); err != nil {
				if ctx.Err() != nil {
					return false
				}
				c.finish(acemq.PublishResult{}, c.r.unsent(err))
				return true
			}
			c.rewrite = false
		}
		if c.t.waitConfirm(ctx, c.p, c.dc) != nil {
			return false
		}
		res, err := c.outcome()
		if err != nil && c.r.again(ctx, c.p, err) {
			c.rewrite = true
			continue
		}
		if errors.Is(err, ErrBrokerRefused) && !final(err) && ctx.Err() != nil {
			c.rewrite = true // its pause was cut short: the next driver resends
			return false
		}
		c.finish(res, err)
		return true
	}
}

// writeAgain sends the message once more.
func (c *confirmation) writeAgain(ctx context.Context) error {
	pm, err := c.t.publishing(c.msg)
	if err != nil {
		return err
	}
	return c.write(ctx, pm)
}

func (c *confirmation) finish(res acemq.PublishResult, err error) {
	c.res, c.err = res, err
	close(c.done)
}

// outcome works out the result of the latest attempt, now settled.
func (c *confirmation) outcome() (acemq.PublishResult, error) {
	reason, returned := "", false
	if c.msg.Mandatory {
		reason, returned = c.p.returns.claim(c.msg.MessageID)
	}
	if !c.dc.Acked() {
		return acemq.PublishResult{}, c.p.nackError(c.exchange, len(c.msg.Body))
	}
	return acemq.PublishResult{MessageID: c.msg.MessageID, Confirmed: true, Routed: !returned, ReturnReason: reason}, nil
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
