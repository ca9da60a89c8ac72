package otel

import (
	"context"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// consumeSpan is one `<queue> process` span, ended once.
type consumeSpan struct {
	span       trace.Span
	handlerErr error     // the error of the handler's Ack, for the retry event
	end        time.Time // when the handler returned; zero until it has
}

// handled notes that the handler returned ack, now.
func (cs *consumeSpan) handled(ack acemq.Ack) {
	cs.handlerErr, cs.end = ack.Err(), time.Now()
}

// at is the timestamp of the span's end and events: when the handler
// returned, or now when it is not known (the handler panicked).
func (cs *consumeSpan) at() time.Time {
	if cs.end.IsZero() {
		return time.Now()
	}
	return cs.end
}

// startProcess opens the process span of a message, its parent taken from
// the message's trace-context headers.
func (t *Tracing) startProcess(ctx context.Context, queue string, env acemq.Envelope, key string) (context.Context, *consumeSpan) {
	ctx, span := t.tracer.Start(t.extract(ctx, env), queue+" process",
		trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(t.processAttrs(queue, key, env)...))
	return ctx, &consumeSpan{span: span}
}

// processAttrs are a process span's attributes, all known at its start.
func (t *Tracing) processAttrs(queue, key string, env acemq.Envelope) []attribute.KeyValue {
	return append([]attribute.KeyValue{
		AttrSystem.String(t.system),
		AttrDestination.String(queue),
		AttrOperation.String(OperationProcess),
		AttrRoutingKey.String(key),
	}, envelopeAttrs(env)...)
}

// settled records the engine's settlement and ends the span.
func (cs *consumeSpan) settled(s acemq.Settlement) {
	cs.span.SetAttributes(AttrOutcome.String(s.Outcome), AttrAction.String(s.Action))
	cs.recordEvents(s)
	if settlementIsError(s) {
		cs.span.SetStatus(codes.Error, s.Reason)
	}
	cs.span.End(trace.WithTimestamp(cs.at()))
}

// recordEvents adds the message.retried or message.dead_lettered event.
func (cs *consumeSpan) recordEvents(s acemq.Settlement) {
	switch {
	case s.Action == acemq.ActionRetried:
		cs.span.AddEvent(EventMessageRetried, trace.WithTimestamp(cs.at()), trace.WithAttributes(AttrNextAttempt.Int(s.Envelope.Attempt),
			AttrDelayMillis.Int64(s.Delay.Milliseconds()), AttrReason.String(cs.retryReason(s))))
	case isSetAside(s):
		cs.span.AddEvent(EventMessageDeadLettered, trace.WithTimestamp(cs.at()), trace.WithAttributes(
			AttrOutcome.String(s.Outcome), AttrReason.String(s.Reason), AttrSetAsideQueue.String(setAsideQueue(s))))
	}
}

// setAsideQueue is the queue a set-aside settlement moved its message to.
func setAsideQueue(s acemq.Settlement) string {
	if s.Action == acemq.ActionParked {
		return acemq.ParkedQueue(s.Queue)
	}
	return acemq.DeadLetterQueue(s.Queue)
}

// retryReason is why a message is retried: the settlement's reason, or
// the error the handler's Ack carried.
func (cs *consumeSpan) retryReason(s acemq.Settlement) string {
	if s.Reason == "" && cs.handlerErr != nil {
		return cs.handlerErr.Error()
	}
	return s.Reason
}
