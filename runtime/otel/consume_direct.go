package otel

import (
	"context"
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// handleUnsettled runs h outside a consumer and ends the span with the
// settlement h's Ack asks for (a panic ends it as a rejection and goes on).
func (cs *consumeSpan) handleUnsettled(ctx context.Context, queue string, env acemq.Envelope, h func(context.Context) acemq.Ack) (ack acemq.Ack) {
	defer func() {
		if p := recover(); p != nil {
			cs.settled(requested(queue, env, acemq.Reject(fmt.Errorf("acemq: the handler panicked: %v", p))))
			panic(p)
		}
	}()
	ack = h(ctx)
	cs.handled(ack)
	cs.settled(requested(queue, env, ack))
	return ack
}

// requestedBy maps an Ack's name to the action and outcome it asks for.
var requestedBy = map[string][2]string{
	"accept": {acemq.ActionAccepted, semconv.OutcomeAcked},
	"retry":  {acemq.ActionRetried, semconv.OutcomeRetried},
	"reject": {acemq.ActionDeadLettered, semconv.OutcomeRejected},
	"park":   {acemq.ActionParked, semconv.OutcomeParked},
}

// requested is the settlement an Ack asks for, as far as it can be known
// without a consumer's retry policy: a fatal retry is dead-lettered, any
// other retry is retried; an Ack this package does not know (in_progress)
// settles under its own name.
func requested(queue string, env acemq.Envelope, ack acemq.Ack) acemq.Settlement {
	s := acemq.Settlement{Queue: queue, Envelope: env, Action: ack.String(), Outcome: ack.String()}
	if ao, ok := requestedBy[ack.String()]; ok {
		s.Action, s.Outcome = ao[0], ao[1]
	}
	if ack.Err() != nil {
		s.Reason = ack.Err().Error()
	}
	switch {
	case ack.IsRetry() && acemq.IsFatal(ack.Err()):
		s.Action, s.Outcome = acemq.ActionDeadLettered, semconv.OutcomeDeadLettered
	case ack.IsRetry():
		s.Envelope = env.NextAttempt()
	}
	return s
}
