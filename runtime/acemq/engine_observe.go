package acemq

// observeSettled counts a delivery once, at settlement, under the engine's
// decision, and times its handler when it ran.
func (c *Consumer) observeSettled(p plan) {
	if !c.conn.observing() {
		return
	}
	o := c.conn.cfg.observer
	l := Labels{LabelQueue: c.queue, LabelOutcome: p.outcome}
	o.Count(MetricConsumeTotal, 1, l)
	if p.handled > 0 {
		o.Observe(MetricConsumeDuration, p.handled.Seconds(), l)
	}
	switch p.outcome {
	case OutcomeRetried:
		o.Count(MetricRetriedTotal, 1, Labels{LabelQueue: c.queue})
	case OutcomeDeadLettered, OutcomeRejected, OutcomeParked:
		o.Count(MetricDeadLetteredTotal, 1, l)
	}
}

// observeInFlight reports how many deliveries the consumer is handling.
func (c *Consumer) observeInFlight(n int64) {
	c.conn.cfg.observer.Gauge(MetricConsumeInFlight, float64(n), Labels{LabelQueue: c.queue})
}
