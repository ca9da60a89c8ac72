package otel

import (
	"context"
	"sync"

	otelapi "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// metricsObserver writes the family's metrics to OpenTelemetry
// instruments, created on first use and cached by name.
type metricsObserver struct {
	meter      metric.Meter
	counters   sync.Map // name → metric.Int64Counter
	histograms sync.Map // name → metric.Float64Histogram
	gauges     sync.Map // name → metric.Float64Gauge
}

// SecondsBuckets returns the bucket boundaries of the duration histograms,
// a new slice on every call: OpenTelemetry's messaging semantic
// conventions' advice for durations in seconds (the SDK's default buckets
// are meant for milliseconds). A view on the meter provider overrides them.
func SecondsBuckets() []float64 {
	return []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}
}

// Observer returns an acemq.Observer (for acemq.WithObserver) that writes
// every sample to meter under the family's own names and label keys
// (acemq.publish.total{outcome, exchange, routing.key}, …), unchanged:
// Count to an Int64Counter, Observe to a Float64Histogram in seconds (unit
// "s", buckets SecondsBuckets()), Gauge to a Float64Gauge. Each instrument
// is created once, on its first sample, and reused. Safe for concurrent
// use; it never blocks beyond the meter's own recording.
func Observer(meter metric.Meter) acemq.Observer {
	return &metricsObserver{meter: meter}
}

// Count adds delta to the counter named metric.
func (o *metricsObserver) Count(name string, delta int64, labels semconv.Labels) {
	c := instrument[metric.Int64Counter](&o.counters, name, noop.Int64Counter{}, func() (metric.Int64Counter, error) {
		return o.meter.Int64Counter(name)
	})
	c.Add(context.Background(), delta, metric.WithAttributeSet(attributes(labels)))
}

// Observe records seconds on the histogram named metric.
func (o *metricsObserver) Observe(name string, seconds float64, labels semconv.Labels) {
	h := instrument[metric.Float64Histogram](&o.histograms, name, noop.Float64Histogram{}, func() (metric.Float64Histogram, error) {
		return o.meter.Float64Histogram(name, metric.WithUnit("s"), metric.WithExplicitBucketBoundaries(SecondsBuckets()...))
	})
	h.Record(context.Background(), seconds, metric.WithAttributeSet(attributes(labels)))
}

// Gauge sets the gauge named metric.
func (o *metricsObserver) Gauge(name string, value float64, labels semconv.Labels) {
	g := instrument[metric.Float64Gauge](&o.gauges, name, noop.Float64Gauge{}, func() (metric.Float64Gauge, error) {
		return o.meter.Float64Gauge(name)
	})
	g.Record(context.Background(), value, metric.WithAttributeSet(attributes(labels)))
}

// instrument returns the instrument cached under name, creating it with
// create on first use. A creation error goes to OpenTelemetry's error
// handler and the instrument the meter returned with it is used, or
// fallback (a no-op) when it returned none.
func instrument[I any](cache *sync.Map, name string, fallback I, create func() (I, error)) I {
	if i, ok := cache.Load(name); ok {
		return i.(I)
	}
	i, err := create()
	if err != nil {
		otelapi.Handle(err)
	}
	if any(i) == nil {
		i = fallback
	}
	actual, _ := cache.LoadOrStore(name, i)
	return actual.(I)
}

// attributes turns labels into an attribute set, keys unchanged.
func attributes(labels semconv.Labels) attribute.Set {
	kvs := make([]attribute.KeyValue, 0, len(labels))
	for k, v := range labels {
		kvs = append(kvs, attribute.String(k, v))
	}
	return attribute.NewSet(kvs...)
}
