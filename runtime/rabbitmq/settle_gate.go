package rabbitmq

import (
	"errors"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// ackDelay is the longest a coalesced ack waits before it is sent,
// ackBatchMax the most acks one basic.ack(multiple) settles at once, and
// maxTracked the most deliveries a channel's window follows.
const (
	ackDelay    = 20 * time.Millisecond
	ackBatchMax = 64
	maxTracked  = 1 << 14 // deliveries a window keeps the state of (a byte each)
)

// settleGate is the settlement side of one subscription's channel. It does
// two things.
//
// It keeps settlements off a channel its subscription is closing.
// amqp091-go marks a channel closed only once the broker's close-ok
// arrives, so an ack sent in between reaches a broker that has already
// closed the channel, and RabbitMQ answers it by closing the whole
// connection (504 CHANNEL_ERROR "expected 'channel.open'"): every other
// consumer and publisher on it would pay for one responder's restart. A
// settlement in progress finishes before the close is sent; one after it
// fails as on a closed channel (the broker delivers the message again).
//
// It coalesces acks. Deliveries settled with an ack in the order they came
// are acked with one basic.ack(multiple) per run instead of a frame each:
// the broker, which shares the machine with its clients, handles one frame
// for up to ackBatchMax messages. An ack is held at most ackDelay and only
// while a delivery before it or after it is still being handled; the last
// outstanding delivery's ack, a nack and closing the channel send what is
// held at once. A held ack is only late, never lost: should the channel
// close first, the broker delivers those messages again, as it does any
// unacked message, which is what Ack's error says in any case.
type settleGate struct {
	mu     sync.Mutex
	closed bool
	ch     acker091 // nil: acks are sent as they come (no coalescing)
	tags   tagWindow
	limit  int // most acks held
	timer  *time.Timer
	armed  bool // timer will flush
	// untracked: the window outgrew maxTracked; acks go on their own.
	untracked bool
}

// acker091 is the part of *amqp.Channel the gate settles on.
type acker091 interface {
	Ack(tag uint64, multiple bool) error
}

// newSettleGate returns the gate of ch, consumed with prefetch: it holds
// at most a quarter of the prefetch window (none at prefetch 1 to 3), so
// the broker never waits on held acks for the window to open.
func newSettleGate(ch acker091, prefetch int) *settleGate {
	limit := ackBatchMax
	if prefetch > 0 {
		limit = min(prefetch/4, ackBatchMax)
	}
	g := &settleGate{tags: tagWindow{low: 1}, limit: limit}
	if limit > 1 {
		g.ch = ch
	}
	return g
}

// delivered records that the broker handed over tag: its ack waits for
// the acks before it. A window grown to maxTracked deliveries behind one
// still being handled (a handler that hangs while the others go on) stops
// the coalescing on this channel: what is held is sent, the window is
// dropped, and every ack after is sent on its own, so memory stays bounded.
func (g *settleGate) delivered(tag uint64) {
	if g == nil || g.ch == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.untracked || g.closed {
		return
	}
	if len(g.tags.state) >= maxTracked {
		_ = g.flushLocked() // an error is the channel's: its messages come again
		g.tags, g.untracked = tagWindow{}, true
		return
	}
	g.tags.add(tag)
}

// settle runs f, the sending of tag's settlement when it is not an ack the
// gate holds (a nack, a reject, an ack of a gate that does not coalesce),
// unless the gate is closed. It marks tag settled, so the acks after it no
// longer wait for it, and sends what is held first. A nil gate always runs
// f.
func (g *settleGate) settle(tag uint64, f func() error) error {
	if g == nil {
		return f()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return amqp.ErrClosed
	}
	g.tags.mark(tag, tagDone)
	return errors.Join(g.flushLocked(), f())
}

// ack acknowledges tag, holding the ack while it can join later ones; send
// is the ack sent on its own (a gate that does not coalesce, or a tag it
// was not told of).
func (g *settleGate) ack(tag uint64, send func() error) error {
	if g == nil || g.ch == nil {
		return g.settle(tag, send)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return amqp.ErrClosed
	}
	if !g.tags.mark(tag, tagHeld) {
		return errors.Join(g.flushLocked(), send())
	}
	switch {
	case g.tags.held() < g.limit:
		g.armLocked()
		return nil
	case g.tags.prefix > 0:
		// A full batch: the run before the first delivery still being
		// handled goes now; acks after it wait to join the next run.
		top := g.tags.takePrefix()
		return g.ch.Ack(top, true)
	default:
		return g.flushLocked()
	}
}

// armLocked makes sure what is held is sent within ackDelay.
func (g *settleGate) armLocked() {
	if g.armed {
		return
	}
	g.armed = true
	if g.timer == nil {
		g.timer = time.AfterFunc(ackDelay, g.late)
		return
	}
	g.timer.Reset(ackDelay)
}

// late sends what is held once ackDelay has passed. An error has no one to
// go to: the channel closed, and the broker delivers the messages again.
func (g *settleGate) late() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.armed = false
	if !g.closed {
		_ = g.flushLocked()
	}
}

// flushLocked sends the held acks: one multiple ack for those before the
// first delivery still being handled, one each for those after it.
func (g *settleGate) flushLocked() error {
	if g.tags.held() == 0 {
		return nil
	}
	var errs []error
	top := g.tags.takeHeld(func(tag uint64) { errs = append(errs, g.ch.Ack(tag, false)) })
	if top != 0 {
		errs = append(errs, g.ch.Ack(top, true))
	}
	return errors.Join(errs...)
}

// close shuts the gate, once every settlement in progress and every held
// ack is sent, then closes ch.
func (g *settleGate) close(ch *amqp.Channel) error {
	g.mu.Lock()
	flushErr := g.flushLocked()
	g.closed = true
	if g.timer != nil {
		g.timer.Stop()
	}
	g.mu.Unlock()
	if err := ch.Close(); err != nil {
		return err
	}
	if flushErr != nil && !errors.Is(flushErr, amqp.ErrClosed) {
		return flushErr
	}
	return nil
}
