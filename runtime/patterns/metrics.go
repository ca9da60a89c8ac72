package patterns

import (
	"errors"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// Request outcomes, the outcome label of acemq.request.total and
// acemq.request.duration.
const (
	OutcomeAnswered = "answered"
	OutcomeTimedOut = "timed_out"
	OutcomeFailed   = "failed"
)

// requestOutcome is answered for a decoded reply, timed_out for a deadline
// that passed, failed for everything else (failure replies, publish errors,
// cancels).
func requestOutcome(err error) string {
	switch {
	case err == nil:
		return OutcomeAnswered
	case errors.Is(err, ErrRequestTimedOut):
		return OutcomeTimedOut
	}
	return OutcomeFailed
}

// observe writes one call's count and duration through the connection's observer.
func (r *Requester[Req, Resp]) observe(start time.Time, err error) {
	labels := semconv.Labels{semconv.LabelRoutingKey: r.key, semconv.LabelOutcome: requestOutcome(err)}
	obs := r.conn.Observer()
	obs.Count(semconv.MetricRequestTotal, 1, labels)
	obs.Observe(semconv.MetricRequestDuration, time.Since(start).Seconds(), labels)
}
