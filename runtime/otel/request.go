package otel

import (
	"context"
	"errors"
	"slices"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Asker sends a request and waits for its reply: *patterns.Requester and
// *patterns.Client are Askers.
type Asker[Req, Resp any] interface {
	Do(ctx context.Context, req Req, opts ...acemq.EnvelopeOption) (Resp, error)
}

// Ask calls asker.Do inside a `<destination> request` CLIENT span, a child
// of ctx's span, and writes that span's traceparent onto the request (with
// the publish interceptor installed, the request's own publish span is a
// child of it and its traceparent is the one sent). The span records
// message id and type and the acemq.request.total outcome: answered,
// timed_out or failed; its status is ERROR only for failed (FAMILY-SPEC
// §5.2 lists no timeout among the ERROR outcomes), with the reason recorded
// for both. Safe for concurrent use as asker is.
func Ask[Req, Resp any](ctx context.Context, tracing *Tracing, destination string, asker Asker[Req, Resp], req Req, opts ...acemq.EnvelopeOption) (Resp, error) {
	ctx, span := tracing.tracer.Start(ctx, destination+" request",
		trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(AttrSystem.String(tracing.system), AttrDestination.String(destination),
			AttrOperation.String(OperationRequest)))
	defer span.End()
	describe := func(env *acemq.Envelope) error {
		tracing.Inject(ctx, env)
		span.SetAttributes(AttrMessageID.String(env.ID), AttrMessageType.String(env.Type))
		return nil
	}
	resp, err := asker.Do(ctx, req, slices.Concat(opts, []acemq.EnvelopeOption{describe})...)
	recordRequest(span, err)
	return resp, err
}

// recordRequest sets a request span's outcome, reason and status.
func recordRequest(span trace.Span, err error) {
	outcome := requestOutcome(err)
	span.SetAttributes(AttrOutcome.String(outcome))
	if err == nil {
		return
	}
	span.SetAttributes(AttrReason.String(err.Error()))
	if outcome == patterns.OutcomeFailed {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
}

// requestOutcome is the acemq.request.total outcome of a call that ended with err.
func requestOutcome(err error) string {
	switch {
	case err == nil:
		return patterns.OutcomeAnswered
	case errors.Is(err, patterns.ErrRequestTimedOut):
		return patterns.OutcomeTimedOut
	}
	return patterns.OutcomeFailed
}
