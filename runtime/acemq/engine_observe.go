package acemq

import "github.com/acemq/acemq-gen/runtime/acemq/semconv"

// observeSettled counts a delivery once, at settlement, under the engine's
// decision, and times its handler when it ran.
func (c *Consumer) observeSettled(p plan) {
	if !c.conn.observing() {
		return
	}
	o := c.conn.cfg.observer
	l := semconv.Labels{semconv.LabelQueue: c.queue, semconv.LabelOutcome: p.outcome}
	o.Count(semconv.MetricConsumeTotal, 1, l)
	if p.handled > 0 {
		o.Observe(semconv.MetricConsumeDuration, p.handled.Seconds(), l)
	}
	switch p.outcome {
	case semconv.OutcomeRetried:
		o.Count(semconv.MetricRetriedTotal, 1, semconv.Labels{semconv.LabelQueue: c.queue})
	case semconv.OutcomeDeadLettered, semconv.OutcomeRejected, semconv.OutcomeParked:
		o.Count(semconv.MetricDeadLetteredTotal, 1, l)
	}
}

// observeInFlight reports how many deliveries the consumer is handling.
func (c *Consumer) observeInFlight(n int64) {
	c.conn.cfg.observer.Gauge(semconv.MetricConsumeInFlight, float64(n), semconv.Labels{semconv.LabelQueue: c.queue})
}
