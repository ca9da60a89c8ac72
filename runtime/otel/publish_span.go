package otel

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// publishSpan is one `<destination> publish` PRODUCER span: opened by a
// Publisher (before the envelope exists) or by the interceptor, completed by
// whichever learns of the message, ended once with the outcome.
type publishSpan struct {
	tracing *Tracing
	ctx     context.Context // carries span as the current span
	span    trace.Span
	claimed atomic.Bool // the interceptor has taken the span
	once    sync.Once
}

// publishSpanKey carries the *publishSpan a Publisher opened.
type publishSpanKey struct{}

// publishSpanFrom returns the publish span a Publisher opened on ctx.
func publishSpanFrom(ctx context.Context) (*publishSpan, bool) {
	ps, ok := ctx.Value(publishSpanKey{}).(*publishSpan)
	return ps, ok
}

// destination names where a publish goes: the exchange, or, through the
// default exchange, the queue named by the routing key.
func destination(exchange, key string) string {
	if exchange == "" {
		return key
	}
	return exchange
}

// startPublish opens a publish span as a child of ctx's span and returns
// the context that carries it (and the *publishSpan, for the interceptor).
func (t *Tracing) startPublish(ctx context.Context, exchange, key string) (context.Context, *publishSpan) {
	dest := destination(exchange, key)
	ctx, span := t.tracer.Start(ctx, dest+" publish",
		trace.WithSpanKind(trace.SpanKindProducer),
		trace.WithAttributes(t.publishAttrs(exchange, key)...))
	ps := &publishSpan{tracing: t, span: span}
	ps.ctx = context.WithValue(ctx, publishSpanKey{}, ps)
	return ps.ctx, ps
}

// publishAttrs are the attributes known before the envelope exists.
func (t *Tracing) publishAttrs(exchange, key string) []attribute.KeyValue {
	return []attribute.KeyValue{
		AttrSystem.String(t.system),
		AttrDestination.String(destination(exchange, key)),
		AttrOperation.String(OperationPublish),
		AttrRoutingKey.String(key),
	}
}

// envelopeAttrs are the attributes an envelope supplies.
func envelopeAttrs(env acemq.Envelope) []attribute.KeyValue {
	conversation := env.CorrelationID
	if conversation == "" {
		conversation = env.ID
	}
	return []attribute.KeyValue{
		AttrMessageID.String(env.ID),
		AttrConversationID.String(conversation),
		AttrMessageType.String(env.Type),
		AttrAttempt.Int(env.Attempt),
	}
}

// describe injects the span's trace context onto env and records env's
// attributes on the span.
func (ps *publishSpan) describe(env *acemq.Envelope) {
	ps.tracing.Inject(ps.ctx, env)
	ps.span.SetAttributes(envelopeAttrs(*env)...)
}

// end records the publish's final destination, envelope and outcome, and
// ends the span; only the first call has an effect.
func (ps *publishSpan) end(out acemq.PublishOutcome) {
	ps.once.Do(func() {
		ps.span.SetName(destination(out.Exchange, out.RoutingKey) + " publish")
		ps.span.SetAttributes(ps.tracing.publishAttrs(out.Exchange, out.RoutingKey)...)
		if out.Envelope.ID != "" {
			ps.span.SetAttributes(envelopeAttrs(out.Envelope)...)
		}
		ps.recordOutcome(out.Result, out.Err)
		ps.span.End()
	})
}

// recordOutcome sets the outcome attribute and, for unroutable and failed
// only, the ERROR status, the reason and the error event.
func (ps *publishSpan) recordOutcome(res acemq.PublishResult, err error) {
	outcome := publishOutcome(res, err)
	ps.span.SetAttributes(AttrOutcome.String(outcome))
	if !publishIsError(outcome) {
		return
	}
	ps.span.SetAttributes(AttrReason.String(err.Error()))
	ps.span.RecordError(err)
	ps.span.SetStatus(codes.Error, err.Error())
}
