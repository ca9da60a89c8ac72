package patterns

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

func TestScheduledMessageArrivesWhenDueNeverBeforeWithItsEnvelopeAndDueTime(t *testing.T) {
	onScheduleTransports(t, scheduleVhost, func(t *testing.T, url string) {
		conn := schedConn(t, url)
		startScheduler(t, conn)
		q, got := destination(t, conn, url)
		pub := acemq.NewPublisher[reminder](conn, "", q)
		s, err := pub.SendAfter(context.Background(), 1500*time.Millisecond, reminder{N: 1, Text: "later"},
			acemq.Header("tenant", "t1"))
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, 10*time.Second, "the message arrives", func() bool { return len(got.all()) == 1 })
		a := got.all()[0]
		if a.at.Before(s.DueAt()) {
			t.Errorf("arrived at %s, before it was due at %s", a.at, s.DueAt())
		}
		if a.msg.Envelope.ID != s.ID() || a.msg.Payload != (reminder{N: 1, Text: "later"}) || a.msg.ContentType != "application/json" {
			t.Errorf("arrived as id %s payload %+v content type %q; want id %s, the payload, application/json",
				a.msg.Envelope.ID, a.msg.Payload, a.msg.ContentType, s.ID())
		}
		h := a.msg.Envelope.Headers
		for name := range h {
			if strings.HasPrefix(name, "x-schedule-") || strings.HasPrefix(name, "x-death") {
				t.Errorf("delivered with bookkeeping header %s", name)
			}
		}
		if h["tenant"] != "t1" || h[semconv.HeaderDueAt] != s.DueAt().UTC().Format("2006-01-02T15:04:05.000Z07:00") {
			t.Errorf("headers %v: want tenant t1 and %s = the due time %s", h, semconv.HeaderDueAt, s.DueAt())
		}
	})
}

func TestScheduleNegativeDelayOrPastTimeIsSentAtOnceWithoutAScheduler(t *testing.T) {
	conn := schedConn(t, "memory://schedule-"+acemq.NewUUID())
	q, got := destination(t, conn, "memory://")
	pub := acemq.NewPublisher[reminder](conn, "", q)
	if _, err := pub.SendAfter(context.Background(), -5*time.Second, reminder{N: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := pub.SendAt(context.Background(), time.Now().Add(-time.Hour), reminder{N: 2}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 2*time.Second, "both arrive with no scheduler running", func() bool { return len(got.all()) == 2 })
}

func TestSendAtRunsTheInterceptorsOnTheFinalDestinationWhenScheduled(t *testing.T) {
	var seen []string
	conn := schedConn(t, "memory://schedule-"+acemq.NewUUID(),
		acemq.WithPublishInterceptor(func(_ context.Context, pc *acemq.PublishContext) error {
			seen = append(seen, pc.Exchange+"/"+pc.RoutingKey)
			pc.SetHeader("stamped", "yes")
			return nil
		}))
	startScheduler(t, conn)
	q, got := destination(t, conn, "memory://")
	if _, err := acemq.NewPublisher[reminder](conn, "", q).SendAfter(context.Background(), 1100*time.Millisecond, reminder{}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != "/"+q {
		t.Errorf("the interceptor saw %v when the message was scheduled; want [/%s]", seen, q)
	}
	waitFor(t, 5*time.Second, "the message arrives", func() bool { return len(got.all()) == 1 })
	if got.all()[0].msg.Envelope.Headers["stamped"] != "yes" {
		t.Errorf("the interceptor's header did not arrive: %v", got.all()[0].msg.Envelope.Headers)
	}
	if len(seen) != 1 {
		t.Errorf("the interceptors ran again on delivery: %v", seen)
	}
}

func TestScheduledToADestinationWithNoQueueIsSetAsideToTheDueDLQWithAReason(t *testing.T) {
	onScheduleTransports(t, scheduleVhost, func(t *testing.T, url string) {
		outcomes := &outcomeObserver{}
		conn := schedConn(t, url, acemq.WithObserver(outcomes))
		startScheduler(t, conn)
		nowhere := "schedule-test-nowhere-" + acemq.NewUUID()[:8]
		s, err := acemq.NewPublisher[reminder](conn, "", nowhere).SendAfter(context.Background(), 1100*time.Millisecond, reminder{})
		if err != nil {
			t.Fatal(err)
		}
		reason := setAsideReason(t, conn, s.ID())
		if !strings.Contains(reason, "reached no queue") || !strings.Contains(reason, nowhere) {
			t.Errorf("set aside with reason %q; want it to say it reached no queue, naming %s", reason, nowhere)
		}
		// FAMILY-SPEC's dead-letter table: a library hop that reached no queue is dead_lettered, not
		// rejected. The set-aside copy reaches the DLQ before its publisher has the broker's
		// confirm, so the outcome, counted after the confirm, can come a moment after the copy.
		var got []string
		waitFor(t, 5*time.Second, "the due queue's outcome is counted", func() bool {
			got = outcomes.of(semconv.ScheduleDueQueue)
			return len(got) > 0
		})
		if !slices.Contains(got, semconv.OutcomeDeadLettered) || slices.Contains(got, semconv.OutcomeRejected) {
			t.Errorf("outcomes on %s: %v; want %s, never %s", semconv.ScheduleDueQueue, got, semconv.OutcomeDeadLettered, semconv.OutcomeRejected)
		}
	})
}

// outcomeObserver keeps the outcome of every consumed message, by queue.
type outcomeObserver struct {
	acemq.NopObserver
	mu   sync.Mutex
	seen map[string][]string
}

func (o *outcomeObserver) Count(metric string, _ int64, l semconv.Labels) {
	if metric != semconv.MetricConsumeTotal {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen == nil {
		o.seen = map[string][]string{}
	}
	o.seen[l[semconv.LabelQueue]] = append(o.seen[l[semconv.LabelQueue]], l[semconv.LabelOutcome])
}

func (o *outcomeObserver) of(queue string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.seen[queue])
}

func TestNewSchedulerRefusesAConnectionWithoutPublisherConfirms(t *testing.T) {
	conn := schedConn(t, "memory://schedule-"+acemq.NewUUID()+"?confirms=off")
	if _, err := NewScheduler(context.Background(), conn); err == nil || !strings.Contains(err.Error(), "publisher confirms") {
		t.Errorf("NewScheduler without confirms: %v", err)
	}
	if _, err := NewScheduler(context.Background(), nil); err == nil {
		t.Error("NewScheduler(nil) was accepted")
	}
}

// TestScheduledToAnExchangeThatNoLongerExistsIsSetAsideNotRetriedForever:
// the destination exchange deleted while the message waits (an operator) is
// the broker's refusal, 404 NOT_FOUND: the scheduler sets the message aside
// to acemq.schedule.due.dlq with that reason instead of sending it again
// every second, closing its channel each time.
func TestScheduledToAnExchangeThatNoLongerExistsIsSetAsideNotRetriedForever(t *testing.T) {
	onScheduleTransports(t, scheduleVhost, func(t *testing.T, url string) {
		conn := schedConn(t, url)
		startScheduler(t, conn)
		gone := "schedule-test-gone-" + acemq.NewUUID()[:8]
		s, err := acemq.NewPublisher[reminder](conn, gone, "x").SendAfter(context.Background(), 1100*time.Millisecond, reminder{})
		if err != nil {
			t.Fatal(err)
		}
		reason := setAsideReason(t, conn, s.ID())
		if !strings.Contains(reason, gone) || !strings.Contains(reason, "404") {
			t.Errorf("set aside with reason %q; want the broker's 404 naming %s", reason, gone)
		}
	})
}
