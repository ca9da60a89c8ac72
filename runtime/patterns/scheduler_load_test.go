package patterns

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// latenessObserver keeps every acemq.schedule.lateness sample.
type latenessObserver struct {
	acemq.NopObserver
	mu      sync.Mutex
	samples []float64
}

func (o *latenessObserver) Observe(metric string, seconds float64, _ semconv.Labels) {
	if metric == semconv.MetricScheduleLateness {
		o.mu.Lock()
		defer o.mu.Unlock()
		o.samples = append(o.samples, seconds)
	}
}

func (o *latenessObserver) count() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.samples)
}

func TestScheduledRandomDelaysAreEachDeliveredOnceNoneEarlyWithLatenessMeasured(t *testing.T) {
	onScheduleTransports(t, scheduleVhost, func(t *testing.T, url string) {
		const n, maxDelay = 300, 15 * time.Second
		obs := &latenessObserver{}
		conn := schedConn(t, url, acemq.WithObserver(obs))
		startScheduler(t, conn)
		q, got := destination(t, conn, url)
		pub := acemq.NewPublisher[reminder](conn, "", q)
		due := map[string]time.Time{}
		for i := range n {
			s, err := pub.SendAfter(context.Background(), rand.N(maxDelay), reminder{N: i})
			if err != nil {
				t.Fatal(err)
			}
			due[s.ID()] = s.DueAt()
		}
		waitFor(t, maxDelay+10*time.Second, "every message arrives", func() bool { return len(got.all()) >= n })
		time.Sleep(500 * time.Millisecond) // room for a duplicate to show
		late := checkArrivals(t, got.all(), due)
		if obs.count() < n {
			t.Errorf("%d lateness samples for %d deliveries", obs.count(), n)
		}
		t.Logf("%d messages, delays 0-%s: p50 lateness %s, p99 %s, max %s", n, maxDelay, late[len(late)/2], late[len(late)*99/100], late[len(late)-1])
	})
}

// checkArrivals fails for a message that arrived twice, early or unknown,
// and returns the lateness of every arrival, sorted.
func checkArrivals(t *testing.T, list []arrival, due map[string]time.Time) []time.Duration {
	t.Helper()
	seen := map[string]bool{}
	var late []time.Duration
	for _, a := range list {
		id := a.msg.Envelope.ID
		d, known := due[id]
		switch {
		case !known:
			t.Errorf("message %s arrived but was not scheduled", id)
		case seen[id]:
			t.Errorf("message %s arrived twice", id)
		case a.at.Before(d):
			t.Errorf("message %s arrived %s before it was due", id, d.Sub(a.at))
		}
		seen[id] = true
		late = append(late, a.at.Sub(d))
	}
	if len(seen) != len(due) {
		t.Errorf("%d of %d messages arrived", len(seen), len(due))
	}
	slices.Sort(late)
	return late
}
