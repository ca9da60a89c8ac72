package otel_test

import (
	"context"
	"fmt"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/otel"
	"github.com/acemq/acemq-gen/runtime/patterns"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// The seed's wiring: the interceptor on the connection, a traced publisher,
// the middleware outermost on the handler. The process span's parent is the
// publish span, through the message's traceparent.
func Example() {
	ctx := context.Background()
	spans := tracetest.NewSpanRecorder()
	tracing := otel.New(otel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))))
	mq, err := acemq.Connect(ctx, "memory://otel-example",
		acemq.WithPublishInterceptor(tracing.PublishInterceptor()))
	if err != nil {
		panic(err)
	}
	defer mq.Close()
	_ = mq.DeclareQueue(ctx, "orders")

	done := make(chan struct{})
	handle := func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() }
	handler := patterns.Chain(handle,
		otel.Middleware[Order](tracing, "orders"),
		patterns.WithTimeout[Order](10*time.Second))
	settled := func(ctx context.Context, m acemq.Message[Order]) acemq.Ack {
		defer close(done)
		return handler(ctx, m)
	}
	consumer, err := acemq.Consume(ctx, mq, "orders", settled)
	if err != nil {
		panic(err)
	}
	orders := otel.NewPublisher[Order](tracing, mq, "", "orders")
	if err := orders.Send(ctx, Order{ID: "42"}); err != nil {
		panic(err)
	}
	<-done
	_ = consumer.Close()

	byName := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range spans.Ended() {
		byName[s.Name()] = s
	}
	publish, process := byName["orders publish"], byName["orders process"]
	fmt.Println(publish.Name(), publish.SpanKind())
	fmt.Println(process.Name(), process.SpanKind())
	fmt.Println("same trace:", process.SpanContext().TraceID() == publish.SpanContext().TraceID())
	// Output:
	// orders publish producer
	// orders process consumer
	// same trace: true
}
