package acemq_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

func TestMetricKeySortsLabelsSoOrderDoesNotSplitCounters(t *testing.T) {
	a := acemqtest.MetricKey("m", semconv.Labels{"queue": "q", "outcome": "acked"})
	b := acemqtest.MetricKey("m", semconv.Labels{"outcome": "acked", "queue": "q"})
	if a != b || a != "m{outcome=acked}{queue=q}" {
		t.Fatalf("keys %q and %q", a, b)
	}
}

func TestWithObserverRefusesNil(t *testing.T) {
	_, err := acemq.Connect(context.Background(), brokerURL(t), acemq.WithObserver(nil))
	if err == nil || err.Error() != "acemq: WithObserver was given a nil observer" {
		t.Fatalf("err = %v", err)
	}
}

func TestObserverDefaultsToNop(t *testing.T) {
	if _, ok := connect(t).Observer().(acemq.NopObserver); !ok {
		t.Fatal("the default observer is not NopObserver")
	}
}

func TestPublishMetricsTellConfirmedFromUnroutableAndTimeBoth(t *testing.T) {
	m := acemqtest.NewMetrics()
	conn := connect(t, acemq.WithObserver(m))
	declare(t, conn, "orders", acemq.Transient())
	send(t, conn, "orders", Order{ID: "1"})
	err := acemq.NewPublisher[Order](conn, "", "nowhere", acemq.Mandatory[Order]()).Send(context.Background(), Order{})
	if !errors.Is(err, acemq.ErrUnroutable) {
		t.Fatalf("err = %v", err)
	}
	counts, durations := m.Counts(), m.Durations()
	confirmed := acemqtest.MetricKey(semconv.MetricPublishTotal, semconv.Labels{"outcome": "confirmed", "exchange": "", "routing.key": "orders"})
	unroutable := acemqtest.MetricKey(semconv.MetricPublishTotal, semconv.Labels{"outcome": "unroutable", "exchange": "", "routing.key": "nowhere"})
	if counts[confirmed] != 1 || counts[unroutable] != 1 {
		t.Fatalf("counts = %v", counts)
	}
	timed := acemqtest.MetricKey(semconv.MetricPublishDuration, semconv.Labels{"outcome": "unroutable", "exchange": "", "routing.key": "nowhere"})
	if durations[timed].Count != 1 {
		t.Fatalf("an unroutable publish is still timed; durations = %v", durations)
	}
}

func TestConsumeMetricsCountEachDeliveryOnceByTheEngineDecision(t *testing.T) {
	m := acemqtest.NewMetrics()
	conn := connect(t, acemq.WithObserver(m))
	declare(t, conn, "orders", acemq.Transient())
	consume(t, conn, "orders", func(_ context.Context, msg acemq.Message[Order]) acemq.Ack {
		switch msg.Payload.ID {
		case "retry":
			return acemq.Retry(errors.New("later"))
		case "park":
			return acemq.Park(errors.New("look"))
		}
		return acemq.Accept()
	}, acemq.RetryWith(acemq.FixedRetry(2, time.Millisecond)))
	for _, id := range []string{"ok", "retry", "park"} {
		send(t, conn, "orders", Order{ID: id})
	}
	total := func(outcome string) int64 {
		return m.Counts()[acemqtest.MetricKey(semconv.MetricConsumeTotal, semconv.Labels{"queue": "orders", "outcome": outcome})]
	}
	// ok: acked; retry: retried once then dead-lettered; park: parked.
	waitFor(t, "every settlement counted", func() bool {
		return total("acked") == 1 && total("retried") == 1 && total("dead_lettered") == 1 && total("parked") == 1
	})
	counts := m.Counts()
	if counts[acemqtest.MetricKey(semconv.MetricRetriedTotal, semconv.Labels{"queue": "orders"})] != 1 {
		t.Fatalf("retried.total must equal consume.total{retried}: %v", counts)
	}
	parked := acemqtest.MetricKey(semconv.MetricDeadLetteredTotal, semconv.Labels{"queue": "orders", "outcome": "parked"})
	dead := acemqtest.MetricKey(semconv.MetricDeadLetteredTotal, semconv.Labels{"queue": "orders", "outcome": "dead_lettered"})
	if counts[parked] != 1 || counts[dead] != 1 {
		t.Fatalf("dead.lettered.total counts parked and dead-lettered apart: %v", counts)
	}
	if d := m.Durations()[acemqtest.MetricKey(semconv.MetricConsumeDuration, semconv.Labels{"queue": "orders", "outcome": "acked"})]; d.Count != 1 {
		t.Fatalf("consume.duration{acked} = %+v", d)
	}
}

func TestDurationSummaryKeepsMinMaxAndMean(t *testing.T) {
	m := acemqtest.NewMetrics()
	for _, s := range []float64{0.3, 0.1, 0.2} {
		m.Observe("d", s, nil)
	}
	d := m.Durations()["d"]
	if d.Count != 3 || d.Min != 0.1 || d.Max != 0.3 || d.Mean() < 0.19 || d.Mean() > 0.21 {
		t.Fatalf("summary = %+v mean %v", d, d.Mean())
	}
}
