package outbox

import (
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// The family's outbox metrics (FAMILY-SPEC §5.1), sent to the relay's
// connection's observer.
const (
	// MetricTotal counts relayed rows by outcome (OutcomePublished,
	// OutcomeFailed, OutcomeRetired), exchange and routing key.
	MetricTotal = "acemq.outbox.total"
	// MetricLag is the seconds from a row's insert to its confirm, by
	// exchange and routing key.
	MetricLag = "acemq.outbox.lag"
)

// The outcome label values of MetricTotal.
const (
	OutcomePublished = "published"
	OutcomeFailed    = "failed"
	// OutcomeRetired counts, once, a row retired after MaxAttempts (beside its
	// last OutcomeFailed).
	OutcomeRetired = "retired"
)

// count reports the outcomes of a committed batch.
func (r *Relay) count(rows []*row) {
	o := r.conn.Observer()
	now := time.Now()
	for _, w := range rows {
		labels := func(outcome string) acemq.Labels {
			return acemq.Labels{acemq.LabelOutcome: outcome, acemq.LabelExchange: w.exchange, acemq.LabelRoutingKey: w.key}
		}
		switch w.outcome {
		case confirmed:
			r.published.Add(1)
			o.Count(MetricTotal, 1, labels(OutcomePublished))
			o.Observe(MetricLag, now.Sub(w.createdAt).Seconds(),
				acemq.Labels{acemq.LabelExchange: w.exchange, acemq.LabelRoutingKey: w.key})
		case refused:
			r.failed.Add(1)
			o.Count(MetricTotal, 1, labels(OutcomeFailed))
			if w.retiredNow {
				r.retired.Add(1)
				o.Count(MetricTotal, 1, labels(OutcomeRetired))
			}
			r.logRefused(w)
		}
	}
}

// logRefused logs a refused row: a warning while it will be retried, an
// error once it retired.
func (r *Relay) logRefused(w *row) {
	args := []any{"table", r.store.table.raw, "row", w.id, "message_id", w.msg.MessageID,
		"exchange", w.exchange, "routing_key", w.key, "attempts", w.attempts + 1, "error", w.lastError}
	if w.retiredNow {
		r.conn.Logger().Error("acemq: outbox relay retired a row the broker kept refusing; it will not be published", args...)
		return
	}
	r.conn.Logger().Warn("acemq: outbox relay: the broker refused a row; it costs an attempt and is retried in a later sweep", args...)
}
