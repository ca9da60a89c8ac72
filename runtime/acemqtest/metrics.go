package acemqtest

import (
	"sort"
	"strings"
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// Metrics is an in-memory acemq.Observer, for tests and small services. A sample is
// filed under its key: the metric name followed by each label as {name=value},
// labels sorted by name, e.g. acemq.consume.total{outcome=acked}{queue=orders}.
// Safe for concurrent use.
type Metrics struct {
	mu        sync.Mutex
	counts    map[string]int64
	gauges    map[string]float64
	durations map[string]DurationSummary
}

// DurationSummary summarises the durations observed under one key, in seconds.
type DurationSummary struct {
	Count         int64
	Sum, Min, Max float64
}

// Mean returns the average duration in seconds; 0 when nothing was observed.
func (d DurationSummary) Mean() float64 {
	if d.Count == 0 {
		return 0
	}
	return d.Sum / float64(d.Count)
}

// NewMetrics returns an empty Metrics.
func NewMetrics() *Metrics {
	return &Metrics{counts: map[string]int64{}, gauges: map[string]float64{}, durations: map[string]DurationSummary{}}
}

// MetricKey renders a metric name and its labels as Metrics files them.
func MetricKey(metric string, labels semconv.Labels) string {
	names := make([]string, 0, len(labels))
	for name := range labels {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(metric)
	for _, name := range names {
		b.WriteString("{" + name + "=" + labels[name] + "}")
	}
	return b.String()
}

// Count adds delta to a counter.
func (m *Metrics) Count(metric string, delta int64, labels semconv.Labels) {
	key := MetricKey(metric, labels)
	m.mu.Lock()
	m.counts[key] += delta
	m.mu.Unlock()
}

// Observe records a duration in seconds.
func (m *Metrics) Observe(metric string, seconds float64, labels semconv.Labels) {
	key := MetricKey(metric, labels)
	m.mu.Lock()
	defer m.mu.Unlock()
	d := m.durations[key]
	if d.Count == 0 || seconds < d.Min {
		d.Min = seconds
	}
	if seconds > d.Max {
		d.Max = seconds
	}
	d.Count++
	d.Sum += seconds
	m.durations[key] = d
}

// Gauge sets a gauge.
func (m *Metrics) Gauge(metric string, value float64, labels semconv.Labels) {
	key := MetricKey(metric, labels)
	m.mu.Lock()
	m.gauges[key] = value
	m.mu.Unlock()
}

// Counts returns a copy of every counter by key.
func (m *Metrics) Counts() map[string]int64 { return snapshot(m, m.counts) }

// Gauges returns a copy of every gauge by key.
func (m *Metrics) Gauges() map[string]float64 { return snapshot(m, m.gauges) }

// Durations returns a copy of every duration summary by key.
func (m *Metrics) Durations() map[string]DurationSummary { return snapshot(m, m.durations) }

// snapshot copies one of m's maps under its lock.
func snapshot[V any](m *Metrics, src map[string]V) map[string]V {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]V, len(src))
	for k, v := range src {
		out[k] = v
	}
	return out
}
