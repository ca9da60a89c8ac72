package acemq

import (
	"errors"
	"time"
)

// Labels tag a metric sample, e.g. {"queue": "orders", "outcome": "acked"}.
type Labels map[string]string

// Observer receives the connection's metrics under the family's names
// (MetricPublishTotal, …). Implementations must be safe for concurrent use
// and must not block: they are called on the publish and consume paths.
type Observer interface {
	// Count adds delta to a counter.
	Count(metric string, delta int64, labels Labels)
	// Observe records a duration in seconds.
	Observe(metric string, seconds float64, labels Labels)
	// Gauge sets a gauge.
	Gauge(metric string, value float64, labels Labels)
}

// The family's metric names (FAMILY-SPEC §5.1).
const (
	MetricPublishTotal      = "acemq.publish.total"
	MetricPublishDuration   = "acemq.publish.duration"
	MetricConsumeTotal      = "acemq.consume.total"
	MetricConsumeDuration   = "acemq.consume.duration"
	MetricConsumeInFlight   = "acemq.consume.in.flight"
	MetricRetriedTotal      = "acemq.messages.retried.total"
	MetricDeadLetteredTotal = "acemq.messages.dead.lettered.total"
	MetricSetAsideFailed    = "acemq.messages.set.aside.failed"
	MetricRetryRungMissing  = "acemq.retry.rung.missing"
	MetricRequestTotal      = "acemq.request.total"
	MetricRequestDuration   = "acemq.request.duration"
)

// The family's label names.
const (
	LabelQueue      = "queue"
	LabelOutcome    = "outcome"
	LabelExchange   = "exchange"
	LabelRoutingKey = "routing.key"
	LabelTarget     = "target"
	LabelRung       = "rung"
)

// Publish outcomes, the outcome label of MetricPublishTotal.
const (
	PublishConfirmed  = "confirmed"
	PublishPublished  = "published"
	PublishUnroutable = "unroutable"
	PublishFailed     = "failed"
)

// NopObserver discards every sample; it is the default.
type NopObserver struct{}

// Count does nothing.
func (NopObserver) Count(string, int64, Labels) {}

// Observe does nothing.
func (NopObserver) Observe(string, float64, Labels) {}

// Gauge does nothing.
func (NopObserver) Gauge(string, float64, Labels) {}

// WithObserver sends the connection's metrics to o. Default NopObserver{};
// nil is refused.
func WithObserver(o Observer) ConnOption {
	return func(cfg *connConfig) error {
		if o == nil {
			return errNilObserver
		}
		cfg.observer = o
		return nil
	}
}

// Observer returns the connection's observer (NopObserver{} by default), for
// packages that write metrics of their own, such as runtime/patterns.
func (c *Conn) Observer() Observer { return c.cfg.observer }

// observing reports whether the connection's observer records anything: a
// NopObserver does not, so the metric labels are not even built.
func (c *Conn) observing() bool {
	_, nop := c.cfg.observer.(NopObserver)
	return !nop
}

// publishOutcome is the outcome label of a publish that ended with res, err.
func publishOutcome(res PublishResult, err error) string {
	switch {
	case err == nil && res.Confirmed:
		return PublishConfirmed
	case err == nil:
		return PublishPublished
	case errors.Is(err, ErrUnroutable):
		return PublishUnroutable
	}
	return PublishFailed
}

// publishLabels are the labels of a publish's metrics.
func publishLabels(exchange, key string, res PublishResult, err error) Labels {
	return Labels{LabelOutcome: publishOutcome(res, err), LabelExchange: exchange, LabelRoutingKey: key}
}

// observePublished counts a publish, whatever stopped it.
func (c *Conn) observePublished(exchange, key string, res PublishResult, err error) {
	if !c.observing() {
		return
	}
	c.cfg.observer.Count(MetricPublishTotal, 1, publishLabels(exchange, key, res, err))
}

// observeTransmitted times a publish from the end of encoding to the confirm.
func (c *Conn) observeTransmitted(exchange, key string, res PublishResult, err error, since time.Time) {
	c.cfg.observer.Observe(MetricPublishDuration, time.Since(since).Seconds(), publishLabels(exchange, key, res, err))
}
