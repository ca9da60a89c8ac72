package otel_test

import (
	"context"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/otel"
	"github.com/acemq/acemq-gen/runtime/patterns"
	"go.opentelemetry.io/otel/attribute"
)

func TestMiddlewareOutermostRecordsWhatTheInnerTimeoutDecided(t *testing.T) {
	tracing, rec, _ := traced(t)
	conn := connect(t, "", []string{"orders"})
	slowFirst := func(ctx context.Context, m acemq.Message[Order]) acemq.Ack {
		if m.Envelope.Attempt == 1 {
			<-ctx.Done()
		}
		return acemq.Accept()
	}
	handler := patterns.Chain(slowFirst,
		otel.Middleware[Order](tracing, "orders"),
		patterns.WithTimeout[Order](5*time.Millisecond))
	consume(t, context.Background(), conn, "orders", handler, fastRetry)
	if err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{}); err != nil {
		t.Fatal(err)
	}
	spans := ended(t, rec, "orders process", 2)
	for _, s := range spans {
		want := map[int64]string{1: "retried", 2: "acked"}[attrs(s)[otel.AttrAttempt].AsInt64()]
		wantAttrs(t, s, map[attribute.Key]any{otel.AttrOutcome: want})
	}
}
