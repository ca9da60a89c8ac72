package rabbitmq

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// DefaultChannelStallTimeout is how long a publish waits for its confirm
// before the transport takes its channel for stalled and reopens it.
const DefaultChannelStallTimeout = 5 * time.Second

// nacksBeforeReopen is how many nacks in a row of one publish on one
// channel make the transport take that channel for stalled.
const nacksBeforeReopen = 2

var stallTimeoutExt = acemq.NewExtension[time.Duration]("rabbitmq.ChannelStallTimeout")

// ChannelStallTimeout bounds how long a publish waits for its confirm on one
// channel (default 5 s). When a confirm takes longer, or the broker nacks
// the same publish twice in a row on one channel, the transport closes that
// channel, opens another on the same connection and sends again, with the
// same message ids, the publishes that were waiting on the old one. On a
// RabbitMQ cluster a channel opened just before a quorum queue's new leader
// is elected (a client redialled from a node that paused in a partition)
// was seen to get no confirm, only a nack every 7 s, until the partition
// healed, while a channel opened a few seconds later is confirmed at once.
// It does not apply while the broker blocks the connection (a memory or disk
// alarm) or WithoutRecovery. ConfirmTimeout stays the bound after which the
// whole connection is dropped. d must be positive; other values fail Connect
// (or Dial). A value of ConfirmTimeout or more leaves only ConfirmTimeout.
func ChannelStallTimeout(d time.Duration) acemq.ConnOption {
	return option(stallTimeoutExt.Option(d), func(c *config) { c.stallTimeout = d })
}

// stalled reports whether a publishing channel is to be reopened, given
// how long a publish has waited on it for its confirm and how many times in
// a row it nacked the same publish; never while the broker blocks the
// connection (confirms then wait for the alarm) or without recovery (its
// publishes are not sent again).
func (c config) stalled(waited time.Duration, nacksInARow int, blocked bool) bool {
	if c.recovery != recoveryOn || blocked {
		return false
	}
	return waited >= c.stallTimeout || nacksInARow >= nacksBeforeReopen
}

// channelStall records that the transport reopened a publishing channel as
// stalled, and why. Its zero value is a channel in use; safe for concurrent
// use.
type channelStall struct{ why atomic.Pointer[error] }

// mark records why; false when the channel was marked already.
func (s *channelStall) mark(why error) bool { return s.why.CompareAndSwap(nil, &why) }

// reopened reports whether the transport reopened the channel as stalled:
// the publishes it had not confirmed are to be sent again.
func (s *channelStall) reopened() bool { return s.why.Load() != nil }

// reopenIfStalled reopens p's channel when config.stalled says so,
// reporting whether it did (or another publish did before).
func (t *Transport) reopenIfStalled(p *pubChannel, waited time.Duration, nacksInARow int) bool {
	if p.stall.reopened() {
		return true
	}
	_, blocked := t.Blocked()
	if !t.cfg.stalled(waited, nacksInARow, blocked) {
		return false
	}
	why := fmt.Errorf("no confirm within rabbitmq.ChannelStallTimeout (%v)", t.cfg.stallTimeout)
	if nacksInARow >= nacksBeforeReopen {
		why = fmt.Errorf("the broker nacked a publish %d times in a row", nacksInARow)
	}
	t.reopen(p, why)
	return true
}

// reopen marks p stalled, takes it out of use so the next publish opens a
// channel of its own, and closes it: its unconfirmed publishes then end
// unacked, and the resender sends them again. The close waits for the
// broker's answer in a goroutine of its own; a broker that never answers is
// ConfirmTimeout's.
func (t *Transport) reopen(p *pubChannel, why error) {
	if !p.stall.mark(why) {
		return
	}
	t.pubMu.Lock()
	for l, cur := range t.pubs {
		if cur == p {
			t.pubs[l] = nil
		}
	}
	t.pubMu.Unlock()
	go func() { _ = p.ch.Close() }()
}

// nackedInARow counts the nacks of one publish in a row on p, the channel
// of its latest attempt.
func (r *resender) nackedInARow(p *pubChannel) int {
	if r.nackedOn != p {
		r.nackedOn, r.inARow = p, 0
	}
	r.inARow++
	return r.inARow
}
