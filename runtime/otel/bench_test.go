package otel_test

import (
	"context"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// benchConn is a memory connection with queue orders, drained by nobody.
func benchConn(b *testing.B, opts ...acemq.ConnOption) *acemq.Conn {
	b.Helper()
	conn, err := acemq.Connect(context.Background(), "memory://bench-"+acemq.NewUUID()+"?confirms=off", opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	if err := conn.DeclareQueue(context.Background(), "orders"); err != nil {
		b.Fatal(err)
	}
	return conn
}

// BenchmarkSendPlain is the baseline: an acemq.Publisher, no tracing.
func BenchmarkSendPlain(b *testing.B) {
	p := acemq.NewPublisher[Order](benchConn(b), "", "orders")
	for b.Loop() {
		_ = p.Send(context.Background(), Order{ID: "1"})
	}
}

// BenchmarkSendTraced is an otel.Publisher with the interceptor, spans
// sampled and dropped by an SDK provider with no exporter.
func BenchmarkSendTraced(b *testing.B) {
	tracing := otel.New(otel.WithTracerProvider(sdktrace.NewTracerProvider()))
	conn := benchConn(b, acemq.WithPublishInterceptor(tracing.PublishInterceptor()))
	p := otel.NewPublisher[Order](tracing, conn, "", "orders")
	for b.Loop() {
		_ = p.Send(context.Background(), Order{ID: "1"})
	}
}

// BenchmarkObserverCount is one counter sample with three labels.
func BenchmarkObserverCount(b *testing.B) {
	o := otel.Observer(sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader())).Meter("bench"))
	labels := semconv.Labels{"outcome": "confirmed", "exchange": "", "routing.key": "orders"}
	for b.Loop() {
		o.Count(semconv.MetricPublishTotal, 1, labels)
	}
}
