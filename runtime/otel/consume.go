package otel

import (
	"context"
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Handle wraps h so that every message it handles runs inside a
// `<queue> process` CONSUMER span. The span's parent is the span context
// the message's traceparent header carries, never the span of the ctx the
// handler is given (a message without one starts a new trace); h runs with
// the new span current, so what it publishes continues the trace. The span
// is ended from acemq.OnSettled with the engine's settlement, so its
// messaging.acemq.outcome is the acemq.consume.total counter's outcome:
// ERROR status only when the message went to the dead-letter queue
// (outcomes dead_lettered and rejected), a message.retried event on a
// retry and a message.dead_lettered event on every set-aside (dead-letter
// or park). Called outside a consumer (no engine to settle), the span ends
// when h returns, with the outcome h asked for.
//
// h must not call acemq.OnSettled itself: a second registration replaces
// the first, and the span would then never end. Safe for concurrent use.
func Handle[T any](tracing *Tracing, queue string, h acemq.Handler[T]) acemq.Handler[T] {
	return func(ctx context.Context, m acemq.Message[T]) acemq.Ack {
		sctx, cs := tracing.startProcess(ctx, queue, m.Envelope, m.RoutingKey)
		if acemq.OnSettled(ctx, cs.settled) {
			return h(sctx, m)
		}
		return cs.handleUnsettled(sctx, queue, m.Envelope, func(ctx context.Context) acemq.Ack { return h(ctx, m) })
	}
}

// Middleware is Handle as handler middleware, for patterns.Chain: put it
// outermost, so the span records what the inner middleware (a timeout, an
// idempotency guard) decided.
func Middleware[T any](tracing *Tracing, queue string) patterns.Middleware[T] {
	return func(h acemq.Handler[T]) acemq.Handler[T] { return Handle(tracing, queue, h) }
}

// consumeSpan is one `<queue> process` span, ended once.
type consumeSpan struct {
	span trace.Span
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
	cs.span.SetAttributes(AttrOutcome.String(s.Outcome), AttrSettledByAction.String(s.Action))
	cs.recordEvents(s)
	if settlementIsError(s) {
		cs.span.SetStatus(codes.Error, s.Reason)
	}
	cs.span.End()
}

// recordEvents adds the message.retried or message.dead_lettered event.
func (cs *consumeSpan) recordEvents(s acemq.Settlement) {
	switch {
	case s.Action == acemq.ActionRetried:
		cs.span.AddEvent(EventMessageRetried, trace.WithAttributes(
			AttrNextAttempt.Int(s.Envelope.Attempt), AttrDelayMillis.Int64(s.Delay.Milliseconds())))
	case isSetAside(s):
		cs.span.AddEvent(EventMessageDeadLettered, trace.WithAttributes(
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
	cs.settled(requested(queue, env, ack))
	return ack
}

// requested is the settlement an Ack asks for, as far as it can be known
// without a consumer's retry policy.
func requested(queue string, env acemq.Envelope, ack acemq.Ack) acemq.Settlement {
	s := acemq.Settlement{Queue: queue, Envelope: env}
	switch {
	case ack.String() == "accept":
		s.Action, s.Outcome = acemq.ActionAccepted, acemq.OutcomeAcked
	case ack.String() == "reject":
		s.Action, s.Outcome = acemq.ActionDeadLettered, acemq.OutcomeRejected
	case ack.String() == "park":
		s.Action, s.Outcome = acemq.ActionParked, acemq.OutcomeParked
	case ack.IsRetry() && acemq.IsFatal(ack.Err()):
		s.Action, s.Outcome = acemq.ActionDeadLettered, acemq.OutcomeDeadLettered
	case ack.IsRetry():
		s.Action, s.Outcome, s.Envelope = acemq.ActionRetried, acemq.OutcomeRetried, env.NextAttempt()
	default:
		s.Action, s.Outcome = ack.String(), ack.String()
	}
	if ack.Err() != nil {
		s.Reason = ack.Err().Error()
	}
	return s
}
