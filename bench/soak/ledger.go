package main

import (
	"sync"
	"sync/atomic"
	"time"
)

// fate is what the consumer does with a message, by its number.
type fate int

const (
	fateAccept fate = iota
	fateRetryThenAccept
	fateReject
	fatePanic
	fatePark
)

// fateOf spreads the fates over message numbers: 60% accepted, 20% retried
// once then accepted, 10% rejected, 5% panicking, 5% parked.
func fateOf(n int64) fate {
	switch m := n % 20; {
	case m < 12:
		return fateAccept
	case m < 16:
		return fateRetryThenAccept
	case m < 18:
		return fateReject
	case m < 19:
		return fatePanic
	default:
		return fatePark
	}
}

// ledger records what was published and what became of it. Safe for
// concurrent use.
type ledger struct {
	next      atomic.Int64
	sentN     atomic.Int64
	failedN   atomic.Int64
	mu        sync.Mutex
	sent      map[int64]bool // publish returned nil
	failed    map[int64]bool // publish returned an error
	firstErr  error
	accepted  map[int64]int  // accepts by the handler behind the guard
	deliv     map[string]int // deliveries by envelope id and attempt
	dupes     int            // deliveries of an (id, attempt) seen before
	delivered atomic.Int64
	lastOK    atomic.Int64 // unix nanos of the latest publish that returned nil
	onOK      func(start time.Time)
	onHandled func()        // told of each accept (chaos: the first handled message after a fault)
	pace      chan struct{} // -rate's tokens; nil: unpaced
}

func newLedger() *ledger {
	return &ledger{sent: map[int64]bool{}, failed: map[int64]bool{}, accepted: map[int64]int{}, deliv: map[string]int{}}
}

func (l *ledger) published(n int64, start time.Time, err error) {
	if err == nil && l.onOK != nil {
		l.onOK(start)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.failed[n] = true
		l.failedN.Add(1)
		if l.firstErr == nil {
			l.firstErr = err
		}
		return
	}
	l.sent[n] = true
	l.sentN.Add(1)
	l.lastOK.Store(time.Now().UnixNano())
}

// delivery counts one delivery (before the idempotency guard).
func (l *ledger) delivery(key string) {
	l.delivered.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.deliv[key]++
	if l.deliv[key] > 1 {
		l.dupes++
	}
}

func (l *ledger) accept(n int64) {
	if l.onHandled != nil {
		l.onHandled()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.accepted[n]++
}

// settledCount is how many sent messages are accounted for by accepts.
func (l *ledger) acceptedCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.accepted)
}
