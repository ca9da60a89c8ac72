package acemqtest

import (
	"os"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// quietWindow is how long nothing may happen on a real broker before the
// harness takes the scenario as settled.
const quietWindow = 150 * time.Millisecond

// runOnBroker runs fn in real time on the broker at url, durations scaled by
// HarnessScaleEnv.
func runOnBroker(t *testing.T, url string, fn func(t *testing.T, h *Harness), opts []acemq.ConnOption) {
	t.Helper()
	scale := DefaultHarnessScale
	if v := os.Getenv(HarnessScaleEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("acemqtest: %s must be a positive duration, got %q", HarnessScaleEnv, v)
		}
		scale = d
	}
	if mgmt := os.Getenv(HarnessManagementEnv); mgmt != "" {
		url = privateVhost(t, mgmt, url)
	}
	h := newHarness(t, url, scale, opts)
	if h == nil {
		return
	}
	fn(t, h)
	h.quietSpell()
	if ws := h.endPending(); len(ws) > 0 {
		t.Errorf("acemqtest: work still in flight when the scenario ended at +%s:\n%s", h.Elapsed(), describe(ws))
	}
	h.exportTrace()
	_ = h.conn.Close()
}

// quietSpell waits until no event was traced and no publish recorded for
// quietWindow (a handler may still be running: Settle waits for it).
func (h *Harness) quietSpell() {
	last := -1
	for {
		n := len(h.trace.snapshot()) + len(h.rec.Published())
		if n == last {
			return
		}
		last = n
		time.Sleep(quietWindow)
	}
}
