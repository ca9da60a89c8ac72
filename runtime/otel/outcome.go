package otel

import (
	"errors"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// publishOutcome is the outcome of a publish in the words of the
// acemq.publish.total counter: confirmed, published (sent without a
// confirm), unroutable or failed. It is the counter's rule, so the span and
// the counter agree.
func publishOutcome(res acemq.PublishResult, err error) string {
	switch {
	case err == nil && res.Confirmed:
		return semconv.PublishConfirmed
	case err == nil:
		return semconv.PublishPublished
	case errors.Is(err, acemq.ErrUnroutable):
		return semconv.PublishUnroutable
	}
	return semconv.PublishFailed
}

// publishIsError reports whether a publish outcome sets the span's status
// to ERROR: only unroutable and failed do.
func publishIsError(outcome string) bool {
	return outcome == semconv.PublishUnroutable || outcome == semconv.PublishFailed
}

// settlementIsError reports whether a settlement sets the consume span's
// status to ERROR: only a message sent to the dead-letter queue
// (acemq.ActionDeadLettered), which the family tags dead_lettered when the
// engine gave up and rejected when the handler refused it outright. A park
// (the handler's or an unreadable body's) is a deliberate set-aside for a
// person and leaves the status unset, as do acked, retried and in_progress;
// every set-aside still records the message.dead_lettered event.
func settlementIsError(s acemq.Settlement) bool {
	return s.Action == acemq.ActionDeadLettered
}

// isSetAside reports whether the settlement moved the message to a
// dead-letter or parked queue: the acemq.messages.dead.lettered.total
// outcomes, each recorded as a message.dead_lettered event.
func isSetAside(s acemq.Settlement) bool {
	return s.Action == acemq.ActionDeadLettered || s.Action == acemq.ActionParked
}
