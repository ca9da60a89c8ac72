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

func closeReturnsPrefetched(k *bkit) {
	q := k.queue()
	started, release := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	rec := newRecorder(func(context.Context, acemq.Message[order]) acemq.Ack {
		if calls.Add(1) == 1 {
			close(started)
			<-release
		}
		return acemq.Accept()
	})
	c := k.consume(nil, q, rec.handle, acemq.Prefetch(10), acemq.Concurrency(1))
	for i := range 5 {
		k.send(q, order{ID: fmt.Sprint("held-", i)})
	}
	<-started
	k.eventually("all five delivered to the consumer", func() bool { return k.count(q) == 0 })
	closed := make(chan error, 1)
	go func() { closed <- c.Close() }()
	k.eventually("the four unstarted messages back in the queue while one runs", func() bool { return k.count(q) == 4 })
	close(release)
	if err := <-closed; err != nil {
		k.t.Fatalf("Close: %v", err)
	}
	if n := rec.handled(); n != 1 {
		k.t.Errorf("handled %d before Close returned, want only the running one", n)
	}
	next := newRecorder(nil)
	k.consume(nil, q, next.handle)
	got := map[string]bool{}
	for range 4 {
		m := next.next(k)
		got[m.Payload.ID] = true
		if !m.Redelivered {
			k.t.Errorf("%s came back without the redelivered flag", m.Payload.ID)
		}
	}
	for i := 1; i < 5; i++ {
		if !got[fmt.Sprint("held-", i)] {
			k.t.Errorf("held-%d was not handled by the next consumer (got %v)", i, got)
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

func competingWithConcurrency(k *bkit) {
	q := k.queue()
	const n = 30
	var mu sync.Mutex
	seen := map[string]int{}
	per := [2]int{}
	for i := range 2 {
		o := newOverlap(2)
		rec := newRecorder(func(_ context.Context, m acemq.Message[order]) acemq.Ack {
			if !o.arrive() {
				k.t.Errorf("consumer %d with Concurrency(3) never ran two handlers at once", i)
			}
			mu.Lock()
			seen[m.Payload.ID]++
			per[i]++
			mu.Unlock()
			return acemq.Accept()
		})
		k.consume(k.open(), q, rec.handle, acemq.Concurrency(3), acemq.Prefetch(10))
	}
	for i := range n {
		k.send(q, order{ID: fmt.Sprint("job-", i)})
	}
	k.eventually("every job handled", func() bool { mu.Lock(); defer mu.Unlock(); return len(seen) == n })
	mu.Lock()
	defer mu.Unlock()
	for id, c := range seen {
		if c != 1 {
			k.t.Errorf("%s handled %d times, want once", id, c)
		}
	}
	if per[0] == 0 || per[1] == 0 {
		k.t.Errorf("handled per consumer = %v, want both to take a share", per)
	}
}
