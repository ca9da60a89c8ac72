package acemqtest

import (
	"testing/synctest"
	"time"
)

// Settle returns when no work is in flight: no handler running, no delivery
// unsettled, no retry or scheduled wait pending short of the horizon
// (Horizon; by default none at all), no RPC unanswered. In a bubble it moves
// virtual time from one wait to the next until then, so a ladder of hours
// settles in microseconds. Work still in flight a year on (a handler blocked
// forever, a scheduled message no scheduler delivers) fails the test,
// naming it.
func (h *Harness) Settle() {
	h.t.Helper()
	h.mu.Lock()
	horizon := h.horizon
	h.mu.Unlock()
	if horizon == 0 {
		h.settleUntil(time.Now().Add(h.D(settleCap)), true)
		return
	}
	h.settleUntil(time.Now().Add(h.D(horizon)), false)
}

// Advance moves the clock on by d (on a real broker, waits h.D(d)), letting
// every wait due meanwhile end at its time, then settles the work due by the
// new now; later waits stay pending.
func (h *Harness) Advance(d time.Duration) {
	h.t.Helper()
	time.Sleep(h.D(d))
	h.settleUntil(time.Now(), false)
}

// settleUntil waits for the work due by limit to end, moving the clock no
// further than limit. With strict, work still in flight at limit fails the
// test.
func (h *Harness) settleUntil(limit time.Time, strict bool) {
	h.t.Helper()
	for {
		h.quiesce()
		ws := dueBy(h.pending(), limit)
		if len(ws) == 0 {
			return
		}
		if !time.Now().Before(limit) {
			if strict {
				h.t.Errorf("acemqtest: Settle gave up at +%s with work still in flight:\n%s", h.Elapsed(), describe(ws))
			}
			return
		}
		h.sleepUntil(nextDue(ws, limit))
	}
}

// quiesce waits until every goroutine of the scenario is blocked: in a
// bubble, synctest.Wait; on a real broker, until nothing has happened for a
// quiet spell.
func (h *Harness) quiesce() {
	if h.Virtual() {
		synctest.Wait()
		return
	}
	h.quietSpell()
}

// sleepUntil blocks until t or until a piece of work ends, whichever is
// first.
func (h *Harness) sleepUntil(t time.Time) {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-h.trace.wake():
	}
}

// dueBy is the work of ws that is running or due by limit.
func dueBy(ws []work, limit time.Time) []work {
	var out []work
	for _, w := range ws {
		if w.due.IsZero() || !w.due.After(limit) {
			out = append(out, w)
		}
	}
	return out
}

// nextDue is the earliest end of a wait of ws still ahead, or limit.
func nextDue(ws []work, limit time.Time) time.Time {
	now, next := time.Now(), limit
	for _, w := range ws {
		if w.due.After(now) && w.due.Before(next) {
			next = w.due
		}
	}
	return next
}
