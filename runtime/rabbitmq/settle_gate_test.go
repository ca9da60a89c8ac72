package rabbitmq

import (
	"errors"
	"fmt"
	"slices"
	"sync"
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
		_ = g.settle(1, func() error { close(inside); <-release; sent.Add(1); return nil })
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
	err := g.settle(2, func() error { sent.Add(1); return nil })
	if !errors.Is(err, amqp.ErrClosed) || sent.Load() != 1 {
		t.Fatalf("after the gate shut: err %v, %d settlements sent, want amqp.ErrClosed and 1", err, sent.Load())
	}
	if err := (*settleGate)(nil).settle(1, func() error { return nil }); err != nil {
		t.Fatalf("a nil gate refused a settlement: %v", err)
	}
}

// ackLog is a channel that records the acks it is asked to send.
type ackLog struct {
	mu   sync.Mutex
	acks []string // "5" or "5+" (multiple)
	err  error
}

func (l *ackLog) Ack(tag uint64, multiple bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := fmt.Sprint(tag)
	if multiple {
		s += "+"
	}
	l.acks = append(l.acks, s)
	return l.err
}

func (l *ackLog) sent() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.acks)
}

func gateWith(t *testing.T, prefetch int, delivered ...uint64) (*settleGate, *ackLog) {
	t.Helper()
	l := &ackLog{}
	g := newSettleGate(l, prefetch)
	for _, tag := range delivered {
		g.delivered(tag)
	}
	return g, l
}

func ackAll(t *testing.T, g *settleGate, l *ackLog, tags ...uint64) {
	t.Helper()
	for _, tag := range tags {
		if err := g.ack(tag, func() error { return l.Ack(tag, false) }); err != nil {
			t.Fatalf("ack %d: %v", tag, err)
		}
	}
}

// TestAcksInOrderAreSentAsOneMultipleAck: a run of acks in delivery order
// goes to the broker as one basic.ack(multiple) once the batch is full,
// not as a frame each.
func TestAcksInOrderAreSentAsOneMultipleAck(t *testing.T) {
	g, l := gateWith(t, 40, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12) // holds 10
	ackAll(t, g, l, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	if got := l.sent(); len(got) != 0 {
		t.Fatalf("9 acks of a batch of 10 sent %v, want them held", got)
	}
	ackAll(t, g, l, 10)
	if got := l.sent(); !slices.Equal(got, []string{"10+"}) {
		t.Fatalf("a full batch sent %v, want one multiple ack of 10", got)
	}
}

// TestAnAckOutOfOrderWaitsForTheOnesBeforeIt: an ack after a delivery still
// being handled is not settled by a multiple ack (which would settle the
// one being handled too); once the gap closes it joins the run.
func TestAnAckOutOfOrderWaitsForTheOnesBeforeIt(t *testing.T) {
	g, l := gateWith(t, 16, 1, 2, 3, 4, 5, 6, 7, 8) // holds 4
	ackAll(t, g, l, 1, 3, 4, 5)
	if got := l.sent(); !slices.Equal(got, []string{"1+"}) {
		t.Fatalf("a full batch with 2 still handled sent %v, want only 1+ (3, 4, 5 after the gap wait)", got)
	}
	ackAll(t, g, l, 2)
	if got := l.sent(); !slices.Equal(got, []string{"1+", "5+"}) {
		t.Fatalf("closing the gap sent %v, want 1+ then 5+ (2-5 in one)", got)
	}
	ackAll(t, g, l, 6)
	if err := g.settle(8, func() error { return l.Ack(8, false) }); err != nil {
		t.Fatal(err)
	}
	if got := l.sent(); !slices.Equal(got, []string{"1+", "5+", "6+", "8"}) {
		t.Fatalf("a nack sent %v, want what was held (6+) first, then the nack", got)
	}
}

// TestHeldAcksAfterAStuckDeliveryAreSentOnTheirOwn: a handler that never
// returns does not keep the acks after it from the broker (its window
// would fill with messages already handled): a full batch with nothing
// before the stuck one sends them one by one.
func TestHeldAcksAfterAStuckDeliveryAreSentOnTheirOwn(t *testing.T) {
	g, l := gateWith(t, 16, 1, 2, 3, 4, 5, 6) // holds 4; 1 is stuck
	ackAll(t, g, l, 2, 3, 4, 5)
	if got := l.sent(); !slices.Equal(got, []string{"2", "3", "4", "5"}) {
		t.Fatalf("a full batch behind a stuck delivery sent %v, want 2 3 4 5 on their own", got)
	}
	ackAll(t, g, l, 1)
	g.mu.Lock()
	_ = g.flushLocked()
	g.mu.Unlock()
	if got := l.sent(); !slices.Equal(got, []string{"2", "3", "4", "5", "1+"}) {
		t.Fatalf("then acking 1 sent %v, want 1+ (2-5 are settled already)", got)
	}
}

// TestAHeldAckIsSentWithinTheDelay: an ack that no batch fills is sent
// within ackDelay, by the gate's timer.
func TestAHeldAckIsSentWithinTheDelay(t *testing.T) {
	g, l := gateWith(t, 100, 1, 2, 3)
	ackAll(t, g, l, 1, 2)
	deadline := time.Now().Add(5 * time.Second)
	for len(l.sent()) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := l.sent(); !slices.Equal(got, []string{"2+"}) {
		t.Fatalf("held acks after the delay: %v, want 2+", got)
	}
}

// TestClosingTheGateSendsWhatIsHeldFirst: acks held when the subscription
// closes its channel reach the broker before the close, and none is sent
// after.
func TestClosingTheGateSendsWhatIsHeldFirst(t *testing.T) {
	g, l := gateWith(t, 100, 1, 2, 3)
	ackAll(t, g, l, 1, 3)
	g.mu.Lock()
	err := g.flushLocked() // close's first step (close itself needs an *amqp.Channel)
	g.closed = true
	g.mu.Unlock()
	if err != nil || !slices.Equal(l.sent(), []string{"3", "1+"}) {
		t.Fatalf("closing sent %v (%v), want 3 and 1+", l.sent(), err)
	}
	if err := g.ack(2, func() error { return l.Ack(2, false) }); !errors.Is(err, amqp.ErrClosed) {
		t.Fatalf("an ack after the close: %v, want amqp.ErrClosed", err)
	}
}

// TestASmallPrefetchIsNotCoalesced: at prefetch 1 to 7 every ack is sent
// as it comes (a quarter of the window is at most one).
func TestASmallPrefetchIsNotCoalesced(t *testing.T) {
	for _, prefetch := range []int{1, 7} {
		g, l := gateWith(t, prefetch, 1, 2)
		ackAll(t, g, l, 1, 2)
		if got := l.sent(); !slices.Equal(got, []string{"1", "2"}) {
			t.Fatalf("prefetch %d sent %v, want 1 and 2 as they came", prefetch, got)
		}
	}
}

// TestAnAckOfATagNeverDeliveredIsSentOnItsOwn: the gate does not hold an
// ack it cannot place (a tag it was not told of, or acked twice): it goes
// to the broker as it came, and the broker judges it.
func TestAnAckOfATagNeverDeliveredIsSentOnItsOwn(t *testing.T) {
	g, l := gateWith(t, 100, 1, 2)
	ackAll(t, g, l, 7)
	if got := l.sent(); !slices.Equal(got, []string{"7"}) {
		t.Fatalf("an unknown tag sent %v, want 7 on its own", got)
	}
	g, l = gateWith(t, 100, 1, 2, 1<<20) // a jump past maxTagGap
	ackAll(t, g, l, 1<<20)
	if got := l.sent(); !slices.Equal(got, []string{fmt.Sprint(1 << 20)}) {
		t.Fatalf("a tag far past the window sent %v, want it on its own", got)
	}
}

// TestAHungDeliveryDoesNotGrowTheWindowWithoutBound: behind a delivery
// that is never settled, every later one is acked; the window that waits
// for the hung one stops at maxTracked deliveries, what it held is sent,
// and every ack after (the hung one's included) goes on its own.
func TestAHungDeliveryDoesNotGrowTheWindowWithoutBound(t *testing.T) {
	g, l := gateWith(t, 1000, 1) // holds 64; 1 hangs
	for tag := uint64(2); tag <= maxTracked+100; tag++ {
		g.delivered(tag)
		ackAll(t, g, l, tag)
	}
	g.mu.Lock()
	tracked, untracked := len(g.tags.state), g.untracked
	g.mu.Unlock()
	if tracked != 0 || !untracked {
		t.Fatalf("after %d deliveries behind a hung one the window holds %d (untracked %v), want it dropped", maxTracked+99, tracked, untracked)
	}
	sent := l.sent()
	if len(sent) != maxTracked+99 || slices.ContainsFunc(sent, func(s string) bool { return s[len(s)-1] == '+' }) {
		t.Fatalf("sent %d acks (a multiple among them: %v), want %d, each on its own (a multiple one would ack the hung delivery)",
			len(sent), slices.ContainsFunc(sent, func(s string) bool { return s[len(s)-1] == '+' }), maxTracked+99)
	}
	ackAll(t, g, l, 1)
	if got := l.sent(); got[len(got)-1] != "1" {
		t.Fatalf("the hung delivery's ack was sent as %q, want 1 on its own", got[len(got)-1])
	}
}
