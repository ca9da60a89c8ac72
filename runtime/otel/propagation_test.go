package otel_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

var w3c = regexp.MustCompile(`^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$`)

func TestPropagationHeadersAreTheW3CTraceparentAndTracestateOfTheSpan(t *testing.T) {
	tracing, _, tp := traced(t)
	ctx, span := ambient(t, tp)
	state, err := trace.ParseTraceState("vendor=x")
	if err != nil {
		t.Fatal(err)
	}
	ctx = trace.ContextWithSpanContext(ctx, span.SpanContext().WithTraceState(state))
	headers := tracing.PropagationHeaders(ctx)
	if headers["traceparent"] != traceparentOf(span.SpanContext()) || !w3c.MatchString(headers["traceparent"]) {
		t.Errorf("traceparent %q, want %q", headers["traceparent"], traceparentOf(span.SpanContext()))
	}
	if headers["tracestate"] != "vendor=x" {
		t.Errorf("tracestate %q, want vendor=x", headers["tracestate"])
	}
}

func TestPropagationHeadersAreEmptyWithoutASpan(t *testing.T) {
	tracing, _, _ := traced(t)
	if headers := tracing.PropagationHeaders(context.Background()); len(headers) != 0 {
		t.Errorf("headers %v, want none", headers)
	}
}

func TestInjectWritesTraceparentOntoAnEnvelopeWithoutHeaders(t *testing.T) {
	tracing, _, tp := traced(t)
	ctx, span := ambient(t, tp)
	var env acemq.Envelope
	tracing.Inject(ctx, &env)
	if env.Headers["traceparent"] != traceparentOf(span.SpanContext()) {
		t.Errorf("headers %v, want the span's traceparent", env.Headers)
	}
}

func TestWithPropagatorReplacesTheW3CDefault(t *testing.T) {
	tracing, _, tp := traced(t, otel.WithPropagator(propagation.Baggage{}))
	ctx, _ := ambient(t, tp)
	if headers := tracing.PropagationHeaders(ctx); headers["traceparent"] != "" {
		t.Errorf("headers %v, want no traceparent from a baggage-only propagator", headers)
	}
}

func TestWithSystemNamesTheMessagingSystem(t *testing.T) {
	tracing, rec, _, conn := tracedOrders(t, otel.WithSystem("acemq-memory"))
	if err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{}); err != nil {
		t.Fatal(err)
	}
	wantAttrs(t, ended(t, rec, "orders publish", 1)[0], map[attribute.Key]any{otel.AttrSystem: "acemq-memory"})
	if tracing.System() != "acemq-memory" || otel.New().System() != otel.DefaultSystem {
		t.Errorf("systems %q and %q", tracing.System(), otel.New().System())
	}
}
