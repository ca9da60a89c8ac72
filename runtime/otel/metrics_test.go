package otel_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/otel"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// metered returns a meter provider read by the returned manual reader.
func metered(t *testing.T) (*sdkmetric.MeterProvider, *sdkmetric.ManualReader) {
	t.Helper()
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	return mp, reader
}

// collect reads every metric, by name.
func collect(t *testing.T, reader *sdkmetric.ManualReader) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			out[m.Name] = m
		}
	}
	return out
}

// labelled renders an attribute set as semconv.Labels, to compare with.
func labelled(set attribute.Set) semconv.Labels {
	l := semconv.Labels{}
	for _, kv := range set.ToSlice() {
		l[string(kv.Key)] = kv.Value.AsString()
	}
	return l
}

func TestObserverWritesTheFamilysMetricsUnderTheirOwnNamesAndLabels(t *testing.T) {
	mp, reader := metered(t)
	tracing, _, _ := traced(t, otel.WithMeterProvider(mp))
	conn := connect(t, "", []string{"orders"}, acemq.WithObserver(tracing.Observer()))
	done := make(chan struct{})
	consume(t, context.Background(), conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		close(done)
		return acemq.Accept()
	})
	if err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{}); err != nil {
		t.Fatal(err)
	}
	<-done
	var got map[string]metricdata.Metrics
	waitFor(t, "the consume counter and duration", func() bool {
		got = collect(t, reader)
		_, counted := got[semconv.MetricConsumeTotal]
		_, timed := got[semconv.MetricConsumeDuration]
		return counted && timed
	})
	wantSum(t, got[semconv.MetricPublishTotal], semconv.Labels{"outcome": "confirmed", "exchange": "", "routing.key": "orders"}, 1)
	wantSum(t, got[semconv.MetricConsumeTotal], semconv.Labels{"queue": "orders", "outcome": "acked"}, 1)
	wantHistogram(t, got[semconv.MetricConsumeDuration], semconv.Labels{"queue": "orders", "outcome": "acked"}, 1)
	wantHistogram(t, got[semconv.MetricPublishDuration], semconv.Labels{"outcome": "confirmed", "exchange": "", "routing.key": "orders"}, 1)
	if _, ok := got[semconv.MetricConsumeInFlight].Data.(metricdata.Gauge[float64]); !ok {
		t.Errorf("%s is %T, want a float64 gauge", semconv.MetricConsumeInFlight, got[semconv.MetricConsumeInFlight].Data)
	}
}

// wantSum fails the test unless m is an int64 counter with n at labels.
func wantSum(t *testing.T, m metricdata.Metrics, labels semconv.Labels, n int64) {
	t.Helper()
	sum, ok := m.Data.(metricdata.Sum[int64])
	if !ok || !sum.IsMonotonic {
		t.Fatalf("%q is %T, want a monotonic int64 sum", m.Name, m.Data)
	}
	for _, dp := range sum.DataPoints {
		if equalLabels(labelled(dp.Attributes), labels) && dp.Value == n {
			return
		}
	}
	t.Errorf("%s has no point %v = %d: %+v", m.Name, labels, n, sum.DataPoints)
}

// wantHistogram fails the test unless m is a histogram in seconds with n
// samples at labels.
func wantHistogram(t *testing.T, m metricdata.Metrics, labels semconv.Labels, n uint64) {
	t.Helper()
	h, ok := m.Data.(metricdata.Histogram[float64])
	if !ok || m.Unit != "s" {
		t.Fatalf("%q is %T in %q, want a float64 histogram in s", m.Name, m.Data, m.Unit)
	}
	for _, dp := range h.DataPoints {
		if equalLabels(labelled(dp.Attributes), labels) && dp.Count == n {
			if !slices.Equal(dp.Bounds, otel.SecondsBuckets()) {
				t.Errorf("%s has buckets %v, want %v", m.Name, dp.Bounds, otel.SecondsBuckets())
			}
			return
		}
	}
	t.Errorf("%s has no point %v with %d samples", m.Name, labels, n)
}

func equalLabels(a, b semconv.Labels) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestObserverIsSafeForConcurrentUseAndLosesNoSample(t *testing.T) {
	mp, reader := metered(t)
	o := otel.Observer(mp.Meter("test"))
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 100 {
				o.Count("acemq.retry.rung.missing", 1, semconv.Labels{"queue": "orders", "rung": "orders.retry.30s"})
				o.Gauge(semconv.MetricConsumeInFlight, 3, semconv.Labels{"queue": "orders"})
			}
		})
	}
	wg.Wait()
	got := collect(t, reader)
	wantSum(t, got["acemq.retry.rung.missing"], semconv.Labels{"queue": "orders", "rung": "orders.retry.30s"}, 1600)
	gauge := got[semconv.MetricConsumeInFlight].Data.(metricdata.Gauge[float64])
	if len(gauge.DataPoints) != 1 || gauge.DataPoints[0].Value != 3 {
		t.Errorf("gauge points %+v, want one at 3", gauge.DataPoints)
	}
}

func TestObserverLabelOrderDoesNotSplitASeries(t *testing.T) {
	mp, reader := metered(t)
	o := otel.Observer(mp.Meter("test"))
	o.Count(semconv.MetricPublishTotal, 1, semconv.Labels{"outcome": "failed", "exchange": "shop", "routing.key": "k"})
	o.Count(semconv.MetricPublishTotal, 2, semconv.Labels{"routing.key": "k", "exchange": "shop", "outcome": "failed"})
	sum := collect(t, reader)[semconv.MetricPublishTotal].Data.(metricdata.Sum[int64])
	if len(sum.DataPoints) != 1 || sum.DataPoints[0].Value != 3 {
		t.Errorf("points %+v, want one series of 3", sum.DataPoints)
	}
}
