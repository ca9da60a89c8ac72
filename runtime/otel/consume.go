package otel

import (
	"context"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// Handle wraps h so that every message it handles runs inside a
// `<queue> process` CONSUMER span, with h's context carrying it, so what h
// publishes continues the trace. The span's parent is the span context the
// message's traceparent header carries, never the span of the ctx the
// handler is given; a message without one starts a new trace.
//
// The span is ended from acemq.OnSettled with the engine's settlement, so
// its messaging.acemq.outcome is the acemq.consume.total counter's outcome
// for the delivery, and it ends at the moment h returned, so it covers the
// handler as acemq.consume.duration does (a retry's wait in the consumer
// is not inside it; the events carry the delay). Its status is ERROR only
// when the message went to the dead-letter queue (outcomes dead_lettered
// and rejected). A retry adds a message.retried event, every set-aside
// (dead-letter or park) a message.dead_lettered event.
//
// Called outside a consumer (no engine to settle), the span ends when h
// returns, with the outcome h's Ack asks for. h may call acemq.OnSettled
// itself: every registration runs. Safe for concurrent use.
func Handle[T any](tracing *Tracing, queue string, h acemq.Handler[T]) acemq.Handler[T] {
	return func(ctx context.Context, m acemq.Message[T]) acemq.Ack {
		sctx, cs := tracing.startProcess(ctx, queue, m.Envelope, m.RoutingKey)
		if acemq.OnSettled(ctx, cs.settled) {
			ack := h(sctx, m)
			cs.handled(ack)
			return ack
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
