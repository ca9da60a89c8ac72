package rabbitmq

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// TestNoSettlementIsSentOnAChannelItsSubscriptionIsClosing: a settlement in
// progress finishes before the gate shuts, and none is sent after, so the
// broker never gets an ack on a channel it has closed (which it answers by
// closing the whole connection: the flaky responder-restart test).
func TestNoSettlementIsSentOnAChannelItsSubscriptionIsClosing(t *testing.T) {
	g := &settleGate{}
	inside, release := make(chan struct{}), make(chan struct{})
	var sent atomic.Int32
	go func() {
		_ = g.settle(func() error { close(inside); <-release; sent.Add(1); return nil })
	}()
	<-inside
	shut := make(chan struct{})
	go func() {
		g.mu.Lock() // what close does before it closes the channel
		g.closed = true
		g.mu.Unlock()
		close(shut)
	}()
	select {
	case <-shut:
		t.Fatal("the gate shut while a settlement was being sent")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-shut
	err := g.settle(func() error { sent.Add(1); return nil })
	if !errors.Is(err, amqp.ErrClosed) || sent.Load() != 1 {
		t.Fatalf("after the gate shut: err %v, %d settlements sent, want amqp.ErrClosed and 1", err, sent.Load())
	}
	if err := (*settleGate)(nil).settle(func() error { return nil }); err != nil {
		t.Fatalf("a nil gate refused a settlement: %v", err)
	}
}
