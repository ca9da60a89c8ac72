package acemq

import (
	"errors"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// Observer receives the connection's metrics under the family's names
// (MetricPublishTotal, …). Implementations must be safe for concurrent use
// and must not block: they are called on the publish and consume paths.
type Observer interface {
	// Count adds delta to a counter.
	Count(metric string, delta int64, labels semconv.Labels)
	// Observe records a duration in seconds.
	Observe(metric string, seconds float64, labels semconv.Labels)
	// Gauge sets a gauge.
	Gauge(metric string, value float64, labels semconv.Labels)
}

// NopObserver discards every sample; it is the default.
type NopObserver struct{}

// Count does nothing.
func (NopObserver) Count(string, int64, semconv.Labels) {}

// Observe does nothing.
func (NopObserver) Observe(string, float64, semconv.Labels) {}

// Gauge does nothing.
func (NopObserver) Gauge(string, float64, semconv.Labels) {}

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
		return semconv.PublishConfirmed
	case err == nil:
		return semconv.PublishPublished
	case errors.Is(err, ErrUnroutable):
		return semconv.PublishUnroutable
	}
	return semconv.PublishFailed
}

// publishLabels are the labels of a publish's metrics.
func publishLabels(exchange, key string, res PublishResult, err error) semconv.Labels {
	return semconv.Labels{semconv.LabelOutcome: publishOutcome(res, err), semconv.LabelExchange: exchange, semconv.LabelRoutingKey: key}
}

// observePublished counts a publish, whatever stopped it.
func (c *Conn) observePublished(exchange, key string, res PublishResult, err error) {
	if !c.observing() {
		return
	}
	c.cfg.observer.Count(semconv.MetricPublishTotal, 1, publishLabels(exchange, key, res, err))
}

// observeTransmitted times a publish from the end of encoding to the confirm.
func (c *Conn) observeTransmitted(exchange, key string, res PublishResult, err error, since time.Time) {
	c.cfg.observer.Observe(semconv.MetricPublishDuration, time.Since(since).Seconds(), publishLabels(exchange, key, res, err))
}
