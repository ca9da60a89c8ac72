package otel_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/otel"
	"github.com/acemq/acemq-gen/runtime/patterns"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

func TestAskOpensAClientRequestSpanWhoseTraceTheResponderReceives(t *testing.T) {
	tracing, rec, _ := traced(t)
	conn := connect(t, "", []string{"quotes"})
	responder, err := patterns.Serve(context.Background(), conn, "quotes",
		func(_ context.Context, m acemq.Message[Order]) (string, error) {
			tp, _ := m.Envelope.Headers["traceparent"].(string)
			return tp, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = responder.Close() })
	client := patterns.NewClient[Order, string](conn, "", "quotes")
	t.Cleanup(func() { _ = client.Close() })
	received, err := otel.Ask(context.Background(), tracing, "quotes", client, Order{ID: "1"})
	if err != nil {
		t.Fatal(err)
	}
	span := ended(t, rec, "quotes request", 1)[0]
	if span.SpanKind() != trace.SpanKindClient || received != traceparentOf(span.SpanContext()) {
		t.Errorf("kind %v, responder got %q, want a client span whose traceparent is %q",
			span.SpanKind(), received, traceparentOf(span.SpanContext()))
	}
	wantAttrs(t, span, map[attribute.Key]any{
		otel.AttrSystem: "rabbitmq", otel.AttrDestination: "quotes", otel.AttrOperation: "request",
		otel.AttrMessageType: "quotes", otel.AttrOutcome: "answered",
	})
}

// askerFunc is an Asker made of a function.
type askerFunc func(ctx context.Context, req Order, opts ...acemq.EnvelopeOption) (string, error)

func (f askerFunc) Do(ctx context.Context, req Order, opts ...acemq.EnvelopeOption) (string, error) {
	return f(ctx, req, opts...)
}

func TestAskRecordsATimeoutWithoutMakingItAnError(t *testing.T) {
	tracing, rec, _ := traced(t)
	timedOut := askerFunc(func(context.Context, Order, ...acemq.EnvelopeOption) (string, error) {
		return "", fmt.Errorf("acemq: quote: %w", patterns.ErrRequestTimedOut)
	})
	if _, err := otel.Ask(context.Background(), tracing, "quotes", timedOut, Order{}); !errors.Is(err, patterns.ErrRequestTimedOut) {
		t.Fatalf("err %v, want the asker's", err)
	}
	span := endedWithOutcome(t, rec, "quotes request", "timed_out")
	wantStatus(t, span, codes.Unset, "unset for a timeout")
}

func TestAskFailedIsAnErrorSpan(t *testing.T) {
	tracing, rec, _ := traced(t)
	failing := askerFunc(func(context.Context, Order, ...acemq.EnvelopeOption) (string, error) {
		return "", errors.New("acemq: the responder failed")
	})
	_, _ = otel.Ask(context.Background(), tracing, "quotes", failing, Order{})
	span := endedWithOutcome(t, rec, "quotes request", "failed")
	wantStatus(t, span, codes.Error, "ERROR")
}
