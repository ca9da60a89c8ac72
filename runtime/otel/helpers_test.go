package otel_test

import (
	"context"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/internal/testpoll"
	"github.com/acemq/acemq-gen/runtime/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// Order is the payload the tests publish.
type Order struct {
	ID string `json:"id"`
}

// traced returns a Tracing whose spans go to the returned recorder, and the
// provider, for spans of the test's own.
func traced(t *testing.T, opts ...otel.Option) (*otel.Tracing, *tracetest.SpanRecorder, *sdktrace.TracerProvider) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return otel.New(append([]otel.Option{otel.WithTracerProvider(tp)}, opts...)...), rec, tp
}

// tracedOrders is traced with a connection whose publishes it traces, on a
// private memory broker with the queue "orders".
func tracedOrders(t *testing.T, opts ...otel.Option) (*otel.Tracing, *tracetest.SpanRecorder, *sdktrace.TracerProvider, *acemq.Conn) {
	t.Helper()
	tracing, rec, tp := traced(t, opts...)
	return tracing, rec, tp, connect(t, "", []string{"orders"}, acemq.WithPublishInterceptor(tracing.PublishInterceptor()))
}

// connect opens a connection to a memory broker private to the test and
// declares queues.
func connect(t *testing.T, query string, queues []string, opts ...acemq.ConnOption) *acemq.Conn {
	t.Helper()
	conn, err := acemq.Connect(context.Background(), "memory://"+t.Name()+"-"+acemq.NewUUID()+query, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	for _, q := range queues {
		if err := conn.DeclareQueue(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	return conn
}

// consume starts a consumer that stops with the test.
func consume[T any](t *testing.T, ctx context.Context, conn *acemq.Conn, queue string, h acemq.Handler[T], opts ...acemq.ConsumeOption) {
	t.Helper()
	c, err := acemq.Consume(ctx, conn, queue, h, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
}

// pull takes the next message of queue, failing the test when there is none.
func pull(t *testing.T, conn *acemq.Conn, queue string) driver.Delivery {
	t.Helper()
	d, ok, err := conn.Transport().(driver.Puller).Pull(context.Background(), queue)
	if err != nil || !ok {
		t.Fatalf("no message in %s (err %v)", queue, err)
	}
	return d
}

// waitFor polls cond with millisecond steps and fails the test after 3s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testpoll.Until(t, 3*time.Second, time.Millisecond, what, cond)
}

// ended waits for n ended spans named name and returns them.
func ended(t *testing.T, rec *tracetest.SpanRecorder, name string, n int) []sdktrace.ReadOnlySpan {
	t.Helper()
	var spans []sdktrace.ReadOnlySpan
	waitFor(t, "spans named "+name, func() bool {
		spans = named(rec, name)
		return len(spans) >= n
	})
	if len(spans) != n {
		t.Fatalf("%d spans named %q, want %d", len(spans), name, n)
	}
	return spans
}

// named returns the ended spans named name.
func named(rec *tracetest.SpanRecorder, name string) []sdktrace.ReadOnlySpan {
	var spans []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == name {
			spans = append(spans, s)
		}
	}
	return spans
}

// attrs returns a span's attributes by key.
func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// wantAttrs fails the test for every attribute of s not as want says.
func wantAttrs(t *testing.T, s sdktrace.ReadOnlySpan, want map[attribute.Key]any) {
	t.Helper()
	got := attrs(s)
	for k, v := range want {
		if got[k].AsInterface() != v {
			t.Errorf("%s: %s = %#v, want %#v", s.Name(), k, got[k].AsInterface(), v)
		}
	}
}

// sendOrder publishes o to the queue orders through a tracing publisher.
func sendOrder(t *testing.T, tracing *otel.Tracing, conn *acemq.Conn, o Order, opts ...acemq.EnvelopeOption) acemq.PublishResult {
	t.Helper()
	res, err := otel.NewPublisher[Order](tracing, conn, "", "orders").SendResult(context.Background(), o, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// wantKindAttrsUnset checks that span is of kind (named kindName in the
// failure), carries want and has an unset status, as it should for unsetFor.
func wantKindAttrsUnset(t *testing.T, span sdktrace.ReadOnlySpan, kind trace.SpanKind, kindName string, want map[attribute.Key]any, unsetFor string) {
	t.Helper()
	if span.SpanKind() != kind {
		t.Errorf("kind %v, want %s", span.SpanKind(), kindName)
	}
	wantAttrs(t, span, want)
	wantStatus(t, span, codes.Unset, "unset for "+unsetFor)
}

// endedWithOutcome waits for the one ended span called name and checks that
// its outcome attribute is outcome.
func endedWithOutcome(t *testing.T, rec *tracetest.SpanRecorder, name, outcome string) sdktrace.ReadOnlySpan {
	t.Helper()
	span := ended(t, rec, name, 1)[0]
	wantAttrs(t, span, map[attribute.Key]any{otel.AttrOutcome: outcome})
	return span
}

// wantStatus checks that span's status code is code (described as want in
// the failure).
func wantStatus(t *testing.T, span sdktrace.ReadOnlySpan, code codes.Code, want string) {
	t.Helper()
	if span.Status().Code != code {
		t.Errorf("status %v, want %s", span.Status(), want)
	}
}

// traceparentOf renders the W3C traceparent of a sampled span context.
func traceparentOf(sc trace.SpanContext) string {
	return "00-" + sc.TraceID().String() + "-" + sc.SpanID().String() + "-01"
}

// ambient returns a context carrying a span of the test's own, and the span.
func ambient(t *testing.T, tp *sdktrace.TracerProvider) (context.Context, trace.Span) {
	t.Helper()
	ctx, span := tp.Tracer("test").Start(context.Background(), "ambient")
	t.Cleanup(func() { span.End() })
	return ctx, span
}
