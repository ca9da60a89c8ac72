package acemqtest

import (
	"os"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// HarnessAMQPURLEnv names the environment variable that makes Run use a
// real broker instead of a synctest bubble: the same scenario then runs in
// real time against that URL, its durations scaled by Harness.D.
const HarnessAMQPURLEnv = "ACEMQ_HARNESS_AMQP_URL"

// HarnessScaleEnv names the environment variable giving, on a real broker,
// how much real time one virtual hour takes (a Go duration); default
// DefaultHarnessScale.
const HarnessScaleEnv = "ACEMQ_HARNESS_SCALE"

// DefaultHarnessScale is the real time one virtual hour takes when Run runs
// a scenario on a real broker: an exponential ladder of 1 h, 2 h and 4 h
// takes 7 s, a message scheduled a day ahead 24 s.
const DefaultHarnessScale = time.Second

// settleCap bounds how far Settle moves virtual time looking for the end of
// the work in flight when no horizon is set: work still pending a year on is
// blocked, and is reported as such.
const settleCap = 366 * 24 * time.Hour

// Harness is one scenario's world: a private broker, a connection on it,
// the trace of everything that happened and the clock. Run makes one; its
// methods are called from the scenario's goroutine.
type Harness struct {
	t       *testing.T
	conn    *acemq.Conn
	rec     *Recorder
	trace   *tracker
	start   time.Time
	scale   time.Duration // real time per virtual hour; 0 in a bubble
	horizon time.Duration // 0: none
	mu      sync.Mutex
}

// Run runs fn in a testing/synctest bubble with a private memory:// broker
// (one no other test reaches) and a Harness whose connection lives in the
// bubble: its goroutines, timers and retry waits advance with virtual time,
// so waits of hours take microseconds. When fn returns, Run fails the test
// naming any work still in flight, then closes the connection and fails it
// naming any goroutine the scenario left behind (synctest's deadlock turned
// into a readable error). With HarnessAMQPURLEnv set, fn runs in real time
// on that broker instead (see Harness.D).
func Run(t *testing.T, fn func(t *testing.T, h *Harness)) {
	t.Helper()
	RunWith(t, nil, fn)
}

// RunWith is Run with options for the harness's connection, such as a
// schema registry (after the harness's own interceptors).
func RunWith(t *testing.T, opts []acemq.ConnOption, fn func(t *testing.T, h *Harness)) {
	t.Helper()
	if url := os.Getenv(HarnessAMQPURLEnv); url != "" {
		runOnBroker(t, url, fn, opts)
		return
	}
	var leaks leakReport
	defer leaks.recoverDeadlock(t)
	synctest.Test(t, func(t *testing.T) {
		leaks.enter()
		h := newHarness(t, "memory://"+uniqueName("harness"), 0, opts)
		if h == nil {
			return
		}
		fn(t, h)
		h.finish(&leaks)
	})
}

// newHarness connects to url through a Recorder, with the harness's
// interceptors first and opts after. It fails t and returns nil when the
// connection cannot be made.
func newHarness(t *testing.T, url string, scale time.Duration, opts []acemq.ConnOption) *Harness {
	t.Helper()
	h := &Harness{t: t, start: time.Now(), scale: scale}
	h.trace = newTracker(h.start)
	h.conn, h.rec = connectRecorded(t, url, append(h.trace.options(), opts...))
	if h.conn == nil {
		return nil
	}
	return h
}

// Conn returns the harness's connection. Run closes it when the scenario
// ends.
func (h *Harness) Conn() *acemq.Conn { return h.conn }

// Recorder returns the Recorder every publish of the connection goes
// through, for Published and ExpectPublished.
func (h *Harness) Recorder() *Recorder { return h.rec }

// Now returns the current time: virtual in a bubble, where it starts at
// midnight UTC, 1 January 2000, and moves only when every goroutine of the
// scenario is blocked.
func (h *Harness) Now() time.Time { return time.Now() }

// Elapsed returns how much virtual time has passed since the scenario
// started. On a real broker it is real time divided back by the scale, and
// counts from the scenario's first publish, so that connecting and
// declaring, which take no virtual time, do not count.
func (h *Harness) Elapsed() time.Duration {
	return h.virtual(time.Since(h.start) - h.trace.origin(h.Virtual()))
}

// Horizon makes Settle leave pending any retry or scheduled wait due more
// than d after Settle is called (Settle then moves the clock at most d);
// d = 0, the default, leaves none pending. It does not move the clock.
func (h *Harness) Horizon(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.horizon = d
}

// D returns the real duration a scenario's duration d stands for: d itself
// in a bubble, d scaled down (HarnessScaleEnv per hour) on a real broker.
// Give a scenario's retry policies, timeouts and schedules through it, so
// that the same test runs both ways.
func (h *Harness) D(d time.Duration) time.Duration {
	if h.scale == 0 {
		return d
	}
	return time.Duration(float64(d) * float64(h.scale) / float64(time.Hour))
}

// virtual is real duration d as scenario time (the inverse of D).
func (h *Harness) virtual(d time.Duration) time.Duration {
	if h.scale == 0 {
		return d
	}
	return time.Duration(float64(d) * float64(time.Hour) / float64(h.scale))
}

// Virtual reports whether the scenario runs in a synctest bubble.
func (h *Harness) Virtual() bool { return h.scale == 0 }
