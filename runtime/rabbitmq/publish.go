package rabbitmq

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"syscall"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// ErrBrokerRefused is the error of a publish the broker nacked; it is
// acemq.ErrBrokerRefused, which the publisher reports as "acemq: cannot
// publish message ID to ...: the broker refused it".
var ErrBrokerRefused = acemq.ErrBrokerRefused

// ErrConfirmLost is wrapped by the error of a publish whose channel or
// connection closed before the broker confirmed it: the message may or may not
// have reached the broker. Like every Publish error it carries no "acemq:"
// prefix, because the publisher wraps it with one naming the message.
// It matches acemq.ErrOutcomeUnknown.
var ErrConfirmLost = fmt.Errorf("the channel or connection closed before the broker confirmed it; %w", acemq.ErrOutcomeUnknown)

// pubChannel is the channel publishes go through, with its returns.
type pubChannel struct {
	conn    *amqp.Connection
	ch      *amqp.Channel
	returns *returnLog
	closes  chan *amqp.Error
	mu      sync.Mutex
	reason  error
	stall   channelStall // reopened as stalled (ChannelStallTimeout)
}

// closeReason is why the channel closed (the broker's error if it sent one).
func (p *pubChannel) closeReason() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case e, ok := <-p.closes:
		if ok && e != nil {
			p.reason = e
		}
	default:
	}
	return p.reason
}

// lane is which publishing channel a message goes through.
type lane int

const (
	// mainLane: the publish channel, in confirm mode unless WithoutConfirms.
	mainLane lane = iota
	// hopLane: the always-confirmed channel of mandatory publishes (the
	// library's hops) when WithoutConfirms: a return can only be told from
	// success by the confirm that follows it.
	hopLane
)

// laneFor picks msg's lane and whether it is confirmed.
func (t *Transport) laneFor(msg driver.Outbound) (lane, bool) {
	switch {
	case t.cfg.confirms:
		return mainLane, true
	case msg.Mandatory:
		return hopLane, true
	default:
		return mainLane, false
	}
}

// publisher returns the live channel of lane l, opening one on the live
// connection when there is none (or the previous one closed).
func (t *Transport) publisher(ctx context.Context, l lane) (*pubChannel, error) {
	for {
		conn, err := t.connection(ctx)
		if err != nil {
			return nil, err
		}
		p, err := t.pubChannelOn(conn, l)
		if err == nil || !conn.IsClosed() {
			return p, err
		}
	}
}

func (t *Transport) pubChannelOn(conn *amqp.Connection, l lane) (*pubChannel, error) {
	t.pubMu.Lock()
	defer t.pubMu.Unlock()
	if p := t.pubs[l]; p != nil && p.conn == conn && !p.ch.IsClosed() {
		return p, nil
	}
	ch, err := conn.Channel()
	if err == nil && (t.cfg.confirms || l == hopLane) {
		err = ch.Confirm(false)
	}
	if err != nil {
		if ch != nil {
			_ = ch.Close()
		}
		return nil, fmt.Errorf("cannot open a publishing channel: %w", err)
	}
	p := &pubChannel{conn: conn, ch: ch, closes: ch.NotifyClose(make(chan *amqp.Error, 1))}
	p.returns = newReturnLog(ch.NotifyReturn(make(chan amqp.Return)))
	t.pubs[l] = p
	return p, nil
}

// Publish sends msg to exchange with key. With confirms on (the default) it
// waits for the broker's confirm of this message only, while other publishes
// proceed on the same channel; at most MaxOutstandingPublishes wait at once.
// A mandatory message that reached no queue returns Routed false with the
// broker's reason ("312 NO_ROUTE"). Refused for certain, not delivered, and
// never sent again (errors.Is acemq.ErrBrokerRefused): a nack (after
// NackRetries resends), a *RefusedError (the broker closed the channel in
// answer to it: 404, 403, 406) and an *acemq.FrameTooLargeError (found
// before writing). Written but not confirmed (errors.Is
// acemq.ErrOutcomeUnknown): ErrConfirmLost (the channel closed for another
// reason, or the connection did and the resend failed) and an
// *acemq.UnconfirmedError (ctx ended while waiting for the confirm). While
// the connection is down, Publish waits for recovery as long as ctx allows;
// while the broker blocks the connection (a memory or disk alarm) it waits
// for the block to lift, and when ctx ends first, the message unwritten, it
// returns an *acemq.PublishingPausedError (acemq.IsBlocked). With
// WithoutConfirms, mandatory messages are still confirmed, on a channel of
// their own. Errors carry no "acemq:" prefix, except
// PublishingPausedError's: the publisher wraps them naming the message.
func (t *Transport) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	pm, err := t.publishing(msg)
	if err != nil {
		return acemq.PublishResult{}, err
	}
	if err := t.waitUnblocked(ctx); err != nil {
		return acemq.PublishResult{}, err
	}
	l, confirmed := t.laneFor(msg)
	if !confirmed {
		return t.publishUnconfirmed(ctx, exchange, key, msg, pm)
	}
	return t.publishConfirmed(ctx, l, exchange, key, msg, pm)
}

// publishConfirmed writes the message on lane l within the
// MaxOutstandingPublishes window and waits for its confirm, sending it again
// (same message id) on the recovered connection when the confirm was lost
// with the connection, and NackRetries times when it was nacked.
func (t *Transport) publishConfirmed(ctx context.Context, l lane, exchange, key string, msg driver.Outbound, pm amqp.Publishing) (acemq.PublishResult, error) {
	r := resender{t: t}
	for {
		if err := t.window.acquire(ctx); err != nil {
			return acemq.PublishResult{}, r.unsent(t.pausedOr(err))
		}
		p, dc, err := t.send(ctx, l, exchange, key, msg.Mandatory, pm)
		if err != nil {
			t.window.release()
			return acemq.PublishResult{}, r.unsent(err)
		}
		res, err := t.await(ctx, p, dc, exchange, msg)
		if err == nil || !r.again(ctx, p, err) {
			return res, err
		}
	}
}

// send writes the message on the live channel of lane l, retrying on the
// recovered connection when the channel closed before the write.
func (t *Transport) send(ctx context.Context, l lane, exchange, key string, mandatory bool, pm amqp.Publishing) (*pubChannel, *amqp.DeferredConfirmation, error) {
	for {
		p, err := t.publisher(ctx, l)
		if err != nil {
			return nil, nil, err
		}
		dc, err := p.ch.PublishWithDeferredConfirmWithContext(ctx, exchange, key, mandatory, false, pm)
		if err == nil || !t.lostInWrite(ctx, p, err) {
			return p, dc, err
		}
	}
}

// lostInWrite reports whether a publish's write failed because p's
// connection is lost, so that it is written again (same message id) once the
// transport has recovered. A socket error (connection reset, broken pipe)
// can come before amqp091 marks the connection closed: the transport then
// drops the connection itself and waits, within ctx, for the mark, so the
// next attempt goes to the recovered connection rather than the dead one.
func (t *Transport) lostInWrite(ctx context.Context, p *pubChannel, err error) bool {
	if errors.Is(err, amqp.ErrClosed) || p.conn.IsClosed() {
		return true
	}
	if ctx.Err() != nil || !isSocketError(err) {
		return false
	}
	t.dropWedged(p.conn, fmt.Errorf("writing a publish failed: %w", err))
	for !p.conn.IsClosed() {
		if !t.sleepCtx(ctx, 10*time.Millisecond) {
			return false
		}
	}
	return true
}

// isSocketError reports whether err is the socket failing under a write
// (context.DeadlineExceeded is a net.Error too, but not the socket's).
func isSocketError(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// await waits for msg's confirm (within ConfirmTimeout, else the connection
// is dropped) and turns it into a result.
func (t *Transport) await(ctx context.Context, p *pubChannel, dc *amqp.DeferredConfirmation, exchange string, msg driver.Outbound) (acemq.PublishResult, error) {
	if err := t.waitConfirm(ctx, p, dc); err != nil {
		go func() { <-dc.Done(); t.window.release() }()
		return acemq.PublishResult{}, t.unconfirmed(err)
	}
	t.window.release()
	if !dc.Acked() {
		return acemq.PublishResult{}, p.nackError(exchange, len(msg.Body))
	}
	res := acemq.PublishResult{MessageID: msg.MessageID, Confirmed: true, Routed: true}
	if msg.Mandatory {
		reason, returned := p.returns.returned(msg.MessageID)
		res.Routed, res.ReturnReason = !returned, reason
	}
	return res, nil
}

// nackError tells a broker nack from a channel that closed under the
// publish (to exchange, with a body of size bytes): in answer to it (a
// *RefusedError), or for another reason (ErrConfirmLost).
func (p *pubChannel) nackError(exchange string, size int) error {
	if !p.ch.IsClosed() {
		return ErrBrokerRefused
	}
	reason := p.closeReason()
	if refused := refusalOf(reason, exchange, size); refused != nil && !p.conn.IsClosed() {
		return refused
	}
	if reason != nil {
		return fmt.Errorf("%w: %w", ErrConfirmLost, reason)
	}
	return ErrConfirmLost
}

// publishUnconfirmed writes the message and returns at once.
func (t *Transport) publishUnconfirmed(ctx context.Context, exchange, key string, msg driver.Outbound, pm amqp.Publishing) (acemq.PublishResult, error) {
	if _, _, err := t.send(ctx, mainLane, exchange, key, msg.Mandatory, pm); err != nil {
		return acemq.PublishResult{}, err
	}
	return acemq.PublishResult{MessageID: msg.MessageID, Routed: true}, nil
}

// unconfirmed is the error of a publish written whose confirm had not come
// when its ctx ended (ctxErr): an *acemq.UnconfirmedError, naming the
// broker's block if there is one, never a PublishingPausedError, which says
// the message was not written.
func (t *Transport) unconfirmed(ctxErr error) error {
	reason, _ := t.Blocked()
	return &acemq.UnconfirmedError{Blocked: reason, Err: ctxErr}
}

// ReleasesHeaders reports that Publish keeps nothing of msg.Headers once it
// returns (driver.HeadersReleaser): the table is written, and written again
// on a resend, within the call; PublishAsync keeps it until its
// Confirmation has settled (Wait returned anything but ErrOutcomeUnknown).
func (t *Transport) ReleasesHeaders() bool { return true }
