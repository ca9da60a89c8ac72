package acemqtest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

var consumerCases = []behaviourCase{
	{"consumer/close-returns-prefetched-unstarted-messages", closeReturnsPrefetched},
	{"consumer/cancelling-ctx-stops-the-consumer", ctxCancelStops},
	{"consumer/competing-consumers-with-concurrency-share-the-queue", competingWithConcurrency},
}

// gate is a handler whose first call blocks until release is closed.
type gate struct {
	calls   atomic.Int32
	started chan struct{}
	release chan struct{}
}

func newGate() *gate { return &gate{started: make(chan struct{}), release: make(chan struct{})} }

func (g *gate) ack(context.Context, acemq.Message[order]) acemq.Ack {
	if g.calls.Add(1) == 1 {
		close(g.started)
		<-g.release
	}
	return acemq.Accept()
}

func closeReturnsPrefetched(k *bkit) {
	q, g := k.queue(), newGate()
	rec := newRecorder(g.ack)
	c := k.consume(nil, q, rec.handle, acemq.Prefetch(10), acemq.Concurrency(1))
	for i := range 5 {
		k.send(q, order{ID: fmt.Sprint("held-", i)})
	}
	<-g.started
	k.eventually("all five delivered to the consumer", func() bool { return k.count(q) == 0 })
	closed := make(chan error, 1)
	go func() { closed <- c.Close() }()
	k.eventually("the four unstarted messages back in the queue while one runs", func() bool { return k.count(q) == 4 })
	close(g.release)
	if err := <-closed; err != nil {
		k.t.Fatalf("Close: %v", err)
	}
	if n := rec.handled(); n != 1 {
		k.t.Errorf("handled %d before Close returned, want only the running one", n)
	}
	expectRedelivered(k, q, "held-1", "held-2", "held-3", "held-4")
}

// expectRedelivered: a new consumer of q handles ids, each marked redelivered.
func expectRedelivered(k *bkit, q string, ids ...string) {
	k.t.Helper()
	next := newRecorder(nil)
	k.consume(nil, q, next.handle)
	got := map[string]bool{}
	for range ids {
		m := next.next(k)
		got[m.Payload.ID] = m.Redelivered
	}
	for _, id := range ids {
		if redelivered, ok := got[id]; !ok || !redelivered {
			k.t.Errorf("%s handled by the next consumer = %v, redelivered = %v; want handled and redelivered", id, ok, redelivered)
		}
	}
}

func ctxCancelStops(k *bkit) {
	q := k.queue()
	ctx, cancel := context.WithCancel(k.ctx)
	rec := newRecorder(nil)
	c, err := acemq.Consume(ctx, k.conn, q, rec.handle)
	if err != nil {
		k.t.Fatal(err)
	}
	k.send(q, order{ID: "before"})
	rec.expect(k, "before")
	cancel()
	select {
	case <-c.Done():
	case <-time.After(waitLimit):
		k.t.Fatalf("the consumer did not stop within %v of its ctx being cancelled", waitLimit)
	}
	k.send(q, order{ID: "after"})
	k.eventually("the message sent after the cancel to wait in the queue", func() bool { return k.count(q) == 1 })
	if n := rec.handled(); n != 1 {
		k.t.Errorf("handled %d, want 1: a cancelled consumer handles nothing more", n)
	}
}

// overlap is a barrier: the first n handlers to arrive wait for each other,
// which only a consumer running n handlers at once lets happen.
type overlap struct {
	n       int32
	arrived atomic.Int32
	all     chan struct{}
	once    sync.Once
}

func newOverlap(n int32) *overlap { return &overlap{n: n, all: make(chan struct{})} }

// arrive waits, for the first n callers, until n have arrived; it reports
// false when they did not within waitLimit.
func (o *overlap) arrive() bool {
	i := o.arrived.Add(1)
	if i > o.n {
		return true
	}
	if i == o.n {
		o.once.Do(func() { close(o.all) })
	}
	select {
	case <-o.all:
		return true
	case <-time.After(waitLimit):
		return false
	}
}

// tally counts handled messages by id and by consumer. Safe for concurrent use.
type tally struct {
	mu   sync.Mutex
	seen map[string]int
	per  [2]int
}

func (t *tally) add(consumer int, id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seen[id]++
	t.per[consumer]++
}

func (t *tally) distinct() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.seen)
}

// overlapping is a handler of consumer i that records into t and fails the
// test unless its first two calls overlap.
func overlapping(k *bkit, t *tally, i int) acemq.Handler[order] {
	o := newOverlap(2)
	return func(_ context.Context, m acemq.Message[order]) acemq.Ack {
		if !o.arrive() {
			k.t.Errorf("consumer %d with Concurrency(3) never ran two handlers at once", i)
		}
		t.add(i, m.Payload.ID)
		return acemq.Accept()
	}
}

func competingWithConcurrency(k *bkit) {
	q, t := k.queue(), &tally{seen: map[string]int{}}
	const n = 30
	for i := range 2 {
		k.consume(k.open(), q, overlapping(k, t, i), acemq.Concurrency(3), acemq.Prefetch(10))
	}
	for i := range n {
		k.send(q, order{ID: fmt.Sprint("job-", i)})
	}
	k.eventually("every job handled", func() bool { return t.distinct() == n })
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, c := range t.seen {
		if c != 1 {
			k.t.Errorf("%s handled %d times, want once", id, c)
		}
	}
	if t.per[0] == 0 || t.per[1] == 0 {
		k.t.Errorf("handled per consumer = %v, want both to take a share", t.per)
	}
}
