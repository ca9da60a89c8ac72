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
	// seen is what the span's attributes say already; the Publisher, the
	// interceptor and its hook run one after the other on the publishing
	// goroutine, so it needs no lock.
	seen described
}

// described is what a publish span's attributes record.
type described struct {
	exchange, key         string
	id, conversation, typ string
	attempt               int
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
	ps := &publishSpan{tracing: t, span: span, seen: described{exchange: exchange, key: key}}
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

// conversation is the conversation an envelope belongs to: its correlation
// id, which defaults to its id.
func conversation(env acemq.Envelope) string {
	if env.CorrelationID == "" {
		return env.ID
	}
	return env.CorrelationID
}

// envelopeAttrs are the attributes an envelope supplies.
func envelopeAttrs(env acemq.Envelope) []attribute.KeyValue {
	return []attribute.KeyValue{
		AttrMessageID.String(env.ID),
		AttrConversationID.String(conversation(env)),
		AttrMessageType.String(env.Type),
		AttrAttempt.Int(env.Attempt),
	}
}

// describe injects the span's trace context onto env and records env's
// attributes on the span.
func (ps *publishSpan) describe(env *acemq.Envelope) {
	ps.tracing.Inject(ps.ctx, env)
	ps.recordEnvelope(*env)
}

// recordEnvelope records env's attributes unless the span has them already.
func (ps *publishSpan) recordEnvelope(env acemq.Envelope) {
	now := ps.seen
	now.id, now.conversation, now.typ, now.attempt = env.ID, conversation(env), env.Type, env.Attempt
	if now != ps.seen && ps.span.IsRecording() {
		ps.span.SetAttributes(envelopeAttrs(env)...)
	}
	ps.seen = now
}

// recordDestination renames the span and records its destination when a
// later interceptor changed the exchange or routing key.
func (ps *publishSpan) recordDestination(exchange, key string) {
	if exchange == ps.seen.exchange && key == ps.seen.key {
		return
	}
	ps.seen.exchange, ps.seen.key = exchange, key
	ps.span.SetName(destination(exchange, key) + " publish")
	ps.span.SetAttributes(ps.tracing.publishAttrs(exchange, key)...)
}

// end records the publish's final destination, envelope and outcome, and
// ends the span; only the first call has an effect.
func (ps *publishSpan) end(out acemq.PublishOutcome) {
	ps.once.Do(func() {
		ps.recordDestination(out.Exchange, out.RoutingKey)
		if out.Envelope.ID != "" {
			ps.recordEnvelope(out.Envelope)
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
