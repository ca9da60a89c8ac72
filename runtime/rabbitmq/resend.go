package rabbitmq

import (
	"context"
	"errors"
	"fmt"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// Defaults of the resend options.
const (
	// DefaultConfirmTimeout is how long a publish waits for its confirm
	// before the transport takes the connection for wedged and reconnects.
	DefaultConfirmTimeout = 30 * time.Second
	// DefaultNackRetries is how many times a nacked publish is sent again.
	DefaultNackRetries = 3
	// nackPause is the wait before the first resend of a nacked publish;
	// it doubles for each later one.
	nackPause = 200 * time.Millisecond
)

var (
	confirmTimeoutExt = acemq.NewExtension[time.Duration]("rabbitmq.ConfirmTimeout")
	nackRetriesExt    = acemq.NewExtension[int]("rabbitmq.NackRetries")
)

// ConfirmTimeout bounds how long a publish waits for the broker's confirm
// (default 30 s). When a confirm takes longer, the transport takes the
// connection for wedged (RabbitMQ 3.10 was seen to open connections, just
// after a cluster node's death, on which nothing is ever confirmed), drops
// it and recovers on the next host; the publish is then sent again there.
// The same bound applies to redeclaring the topology during recovery and to
// Close's handshake. d must be positive; other values fail Connect (or Dial).
func ConfirmTimeout(d time.Duration) acemq.ConnOption {
	return option(confirmTimeoutExt.Option(d), func(c *config) { c.confirmTimeout = d })
}

// NackRetries sets how many times a publish the broker nacked is sent again
// before it fails with ErrBrokerRefused (default 3), after a pause of 200 ms
// doubling each time, within the publish's ctx. A RabbitMQ cluster nacks
// quorum-queue publishes in the moments after the queue's leader died; a
// queue that refuses for good (x-overflow reject-publish on a full queue)
// refuses the resends too. 0 fails a nacked publish at once; a negative n
// fails Connect (or Dial).
func NackRetries(n int) acemq.ConnOption {
	return option(nackRetriesExt.Option(n), func(c *config) { c.nackRetries = n })
}

// readResendOptions reads ConfirmTimeout, NackRetries and
// ChannelStallTimeout among ext.
func (c *config) readResendOptions(ext driver.Extensions) {
	if d, ok := confirmTimeoutExt.Of(ext); ok {
		c.confirmTimeout = d
	}
	if n, ok := nackRetriesExt.Of(ext); ok {
		c.nackRetries = n
	}
	if d, ok := stallTimeoutExt.Of(ext); ok {
		c.stallTimeout = d
	}
}

func (c config) validateResend() error {
	if c.confirmTimeout <= 0 {
		return fmt.Errorf("rabbitmq.ConfirmTimeout must be positive, got %v", c.confirmTimeout)
	}
	if c.stallTimeout <= 0 {
		return fmt.Errorf("rabbitmq.ChannelStallTimeout must be positive, got %v", c.stallTimeout)
	}
	if c.nackRetries < 0 {
		return fmt.Errorf("rabbitmq.NackRetries must be at least 0, got %d", c.nackRetries)
	}
	return nil
}

// resender decides, for one publish, whether an outcome is sent again: a
// confirm lost with the connection (once the transport recovers, as often as
// it takes) and a nack (NackRetries times). Not safe for concurrent use: one
// per publish.
type resender struct {
	t        *Transport
	nacks    int
	lost     bool        // an attempt's confirm was lost with its connection: it may have been delivered
	nackedOn *pubChannel // the channel of the latest nack
	inARow   int         // the nacks in a row on nackedOn
}

// unsent is the error of a resend that could not be written (err): when an
// earlier attempt's confirm was lost with its connection, the message may
// still have been delivered, and the error says so (an
// *acemq.UnconfirmedError, acemq.ErrOutcomeUnknown, wrapping err).
func (r *resender) unsent(err error) error {
	if r.lost {
		return &acemq.UnconfirmedError{Err: fmt.Errorf("its confirm was lost with the connection and sending it again failed: %w", err)}
	}
	return err
}

// again reports whether the publish that failed with err on p is sent
// again, after waiting (within ctx) for what makes a resend worth it. A
// channel closed by the broker while the connection lives (a publish to a
// missing exchange) is final: a resend would close it again.
func (r *resender) again(ctx context.Context, p *pubChannel, err error) bool {
	switch {
	case final(err):
		return false
	case errors.Is(err, ErrConfirmLost) && p.stall.reopened():
		r.lost = true // the transport closed the channel under it
		return !r.t.isClosed()
	case errors.Is(err, ErrConfirmLost):
		r.lost = r.lost || p.conn.IsClosed()
		return p.conn.IsClosed() && r.t.cfg.recovery == recoveryOn && !r.t.isClosed()
	case errors.Is(err, ErrBrokerRefused) && r.nacks < r.t.cfg.nackRetries:
		pause := nackPause << r.nacks
		r.nacks++
		r.t.reopenIfStalled(p, 0, r.nackedInARow(p))
		return r.t.sleepCtx(ctx, pause)
	}
	return false
}

// sleepCtx waits d; false when ctx ends or the transport closes first.
func (t *Transport) sleepCtx(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	case <-t.done:
		return false
	}
}

// waitConfirm waits for dc within ctx; when ChannelStallTimeout passes
// first it reopens p's channel (dc then ends unacked, and the publish is
// sent again on the new channel); when ConfirmTimeout passes first it
// drops p's connection (the channel's confirms then end, unacked, and the
// publish is sent again after recovery) and goes on waiting. It returns
// ctx's error when ctx ends first.
func (t *Transport) waitConfirm(ctx context.Context, p *pubChannel, dc *amqp.DeferredConfirmation) error {
	select {
	case <-dc.Done():
		return nil
	default:
	}
	timer := time.NewTimer(t.cfg.confirmTimeout)
	defer timer.Stop()
	stall := time.NewTimer(t.cfg.stallTimeout)
	defer stall.Stop()
	for {
		select {
		case <-dc.Done():
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-stall.C:
			if !t.reopenIfStalled(p, t.cfg.stallTimeout, 0) {
				stall.Reset(t.cfg.stallTimeout) // blocked: look again later
			}
		case <-timer.C:
			t.dropWedged(p.conn, fmt.Errorf("no confirm within rabbitmq.ConfirmTimeout (%v)", t.cfg.confirmTimeout))
		}
	}
}

// dropWedged closes the socket under conn when conn is still the live
// connection, so the transport recovers on another: conn's Close would wait
// for an answer a wedged broker never sends.
func (t *Transport) dropWedged(conn *amqp.Connection, why error) {
	t.mu.Lock()
	nc := t.netConn
	live := t.conn == conn
	t.mu.Unlock()
	if live && nc != nil {
		t.dropped.CompareAndSwap(nil, &why)
		_ = nc.Close()
	}
}

// lossCause is why conn was lost: the transport's own reason when it
// dropped a wedged connection (the RecoveryLost event's Err), else the
// broker's or the socket's.
func (t *Transport) lossCause(amqpErr *amqp.Error) error {
	if why := t.dropped.Swap(nil); why != nil {
		return fmt.Errorf("the transport dropped the connection: %w", *why)
	}
	if amqpErr != nil {
		return amqpErr
	}
	return nil
}
