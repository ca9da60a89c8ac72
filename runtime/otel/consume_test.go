package otel_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
	"github.com/acemq/acemq-gen/runtime/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// accept is a handler that accepts everything.
func accept(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() }

// fastRetry retries twice in the consumer after a millisecond.
var fastRetry = acemq.RetryWith(acemq.FixedRetry(2, time.Millisecond))

func TestProcessSpanIsAConsumerSpanNamedForTheQueueWithTheFamilysAttributes(t *testing.T) {
	tracing, rec, _, conn := tracedOrders(t)
	consume(t, context.Background(), conn, "orders", otel.Handle(tracing, "orders", accept))
	res := sendOrder(t, tracing, conn, Order{}, acemq.CorrelationID("conv-7"))
	span := ended(t, rec, "orders process", 1)[0]
	wantKindAttrsUnset(t, span, trace.SpanKindConsumer, "consumer", map[attribute.Key]any{
		otel.AttrSystem: "rabbitmq", otel.AttrDestination: "orders", otel.AttrOperation: "process",
		otel.AttrMessageID: res.MessageID, otel.AttrConversationID: "conv-7", otel.AttrRoutingKey: "orders",
		otel.AttrMessageType: "orders", otel.AttrAttempt: int64(1), otel.AttrOutcome: "acked",
	}, "an acked message")
}

func TestProcessSpanParentIsTheMessagesTraceparentNotTheAmbientSpan(t *testing.T) {
	tracing, rec, tp, conn := tracedOrders(t)
	consumerCtx, amb := ambient(t, tp)
	consume(t, consumerCtx, conn, "orders", otel.Handle(tracing, "orders", accept))
	if err := otel.NewPublisher[Order](tracing, conn, "", "orders").Send(context.Background(), Order{}); err != nil {
		t.Fatal(err)
	}
	publish := ended(t, rec, "orders publish", 1)[0]
	process := ended(t, rec, "orders process", 1)[0]
	if process.Parent().SpanID() != publish.SpanContext().SpanID() || !process.Parent().IsRemote() {
		t.Errorf("parent %v, want the publish span %v, remote", process.Parent(), publish.SpanContext())
	}
	if process.SpanContext().TraceID() == amb.SpanContext().TraceID() {
		t.Error("the process span joined the ambient trace")
	}
}

func TestAMessageWithoutTraceparentStartsANewTraceNotTheAmbientOne(t *testing.T) {
	tracing, rec, tp := traced(t)
	conn := connect(t, "", []string{"orders"})
	consumerCtx, amb := ambient(t, tp)
	consume(t, consumerCtx, conn, "orders", otel.Handle(tracing, "orders", accept))
	if err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{}); err != nil {
		t.Fatal(err)
	}
	process := ended(t, rec, "orders process", 1)[0]
	if process.Parent().IsValid() || process.SpanContext().TraceID() == amb.SpanContext().TraceID() {
		t.Errorf("parent %v in trace %v, want a new root", process.Parent(), process.SpanContext().TraceID())
	}
}

func TestTheHandlerRunsWithTheProcessSpanCurrentSoItsPublishesContinueTheTrace(t *testing.T) {
	tracing, rec, _ := traced(t)
	conn := connect(t, "", []string{"orders", "invoices"}, acemq.WithPublishInterceptor(tracing.PublishInterceptor()))
	invoices := otel.NewPublisher[Order](tracing, conn, "", "invoices")
	consume(t, context.Background(), conn, "orders", otel.Handle(tracing, "orders",
		func(ctx context.Context, m acemq.Message[Order]) acemq.Ack {
			if err := invoices.Send(ctx, m.Payload); err != nil {
				return acemq.Retry(err)
			}
			return acemq.Accept()
		}))
	if err := otel.NewPublisher[Order](tracing, conn, "", "orders").Send(context.Background(), Order{}); err != nil {
		t.Fatal(err)
	}
	process := ended(t, rec, "orders process", 1)[0]
	invoice := ended(t, rec, "invoices publish", 1)[0]
	if invoice.Parent().SpanID() != process.SpanContext().SpanID() {
		t.Errorf("the handler's publish has parent %v, want the process span", invoice.Parent().SpanID())
	}
}

// inProgressOnce says InProgress to the first delivery of an "in-progress"
// order and accepts the others.
var inProgressOnce sync.Map

// decide is the handler of the agreement test: what it does depends on the
// order's ID and the attempt.
func decide(_ context.Context, m acemq.Message[Order]) acemq.Ack {
	fail := errors.New("acemq: not yet")
	switch m.Payload.ID {
	case "in-progress":
		if _, seen := inProgressOnce.LoadOrStore(m.Envelope.ID, true); !seen {
			return acemq.InProgress(time.Millisecond)
		}
	case "reject":
		return acemq.Reject(fail)
	case "park":
		return acemq.Park(fail)
	case "fatal":
		return acemq.Retry(acemq.Fatal(fail))
	case "exhaust":
		return acemq.Retry(fail)
	case "retry-then-accept":
		if m.Envelope.Attempt == 1 {
			return acemq.Retry(fail)
		}
	}
	return acemq.Accept()
}

func TestTheCounterAndTheSpanAgreeOnEveryOutcome(t *testing.T) {
	tracing, rec, _ := traced(t)
	metrics := acemqtest.NewMetrics()
	conn := connect(t, "", []string{"orders"}, acemq.WithObserver(metrics))
	consume(t, context.Background(), conn, "orders", otel.Handle(tracing, "orders", decide), fastRetry)
	ids := []string{"accept", "retry-then-accept", "reject", "park", "fatal", "exhaust", "in-progress"}
	if _, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), orders(ids...)); err != nil {
		t.Fatal(err)
	}
	spans := ended(t, rec, "orders process", 10)
	waitFor(t, "10 deliveries counted", func() bool { return consumeTotal(metrics, "") == 10 })
	want := map[string]int{"acked": 3, "retried": 2, "rejected": 1, "parked": 1, "dead_lettered": 2, "in_progress": 1}
	for outcome, n := range want {
		bySpan := withOutcome(spans, outcome)
		if len(bySpan) != n || consumeTotal(metrics, outcome) != int64(n) {
			t.Errorf("%s: %d spans, counter %d, want %d of each", outcome, len(bySpan), consumeTotal(metrics, outcome), n)
		}
		for _, s := range bySpan {
			wantError := outcome == "rejected" || outcome == "dead_lettered"
			if (s.Status().Code == codes.Error) != wantError {
				t.Errorf("%s span has status %v; ERROR only for rejected and dead_lettered", outcome, s.Status())
			}
		}
	}
}

// orders returns one Order per id.
func orders(ids ...string) []Order {
	out := make([]Order, len(ids))
	for i, id := range ids {
		out[i] = Order{ID: id}
	}
	return out
}

// consumeTotal reads acemq.consume.total for queue orders and outcome, or
// its sum over every outcome when outcome is "".
func consumeTotal(m *acemqtest.Metrics, outcome string) int64 {
	var n int64
	for _, o := range []string{"acked", "retried", "rejected", "parked", "dead_lettered", "in_progress"} {
		if outcome == "" || o == outcome {
			n += m.Counts()[semconv.MetricConsumeTotal+"{outcome="+o+"}{queue=orders}"]
		}
	}
	return n
}

// withOutcome returns the spans whose messaging.acemq.outcome is outcome.
func withOutcome(spans []sdktrace.ReadOnlySpan, outcome string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if attrs(s)[otel.AttrOutcome].AsString() == outcome {
			out = append(out, s)
		}
	}
	return out
}

func TestRetriesAndSetAsidesAreSpanEventsNotSpans(t *testing.T) {
	tracing, rec, _ := traced(t)
	conn := connect(t, "", []string{"orders"})
	consume(t, context.Background(), conn, "orders", otel.Handle(tracing, "orders", decide), fastRetry)
	if _, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), orders("exhaust", "park")); err != nil {
		t.Fatal(err)
	}
	spans := ended(t, rec, "orders process", 3)
	retried := event(t, withOutcome(spans, "retried")[0], otel.EventMessageRetried)
	wantEventAttr(t, retried, otel.AttrNextAttempt, int64(2))
	wantEventAttr(t, retried, otel.AttrReason, "acemq: not yet")
	dead := event(t, withOutcome(spans, "dead_lettered")[0], otel.EventMessageDeadLettered)
	wantEventAttr(t, dead, otel.AttrSetAsideQueue, "orders.dlq")
	wantEventAttr(t, dead, otel.AttrReason, "exhausted 2 attempts: acemq: not yet")
	parked := event(t, withOutcome(spans, "parked")[0], otel.EventMessageDeadLettered)
	wantEventAttr(t, parked, otel.AttrSetAsideQueue, "orders.parked")
	wantEventAttr(t, parked, otel.AttrOutcome, "parked")
}

// event returns the span's only event named name.
func event(t *testing.T, s sdktrace.ReadOnlySpan, name string) sdktrace.Event {
	t.Helper()
	var found []sdktrace.Event
	for _, e := range s.Events() {
		if e.Name == name {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %s events on a %s span, want 1", len(found), name, attrs(s)[otel.AttrOutcome].AsString())
	}
	return found[0]
}

// wantEventAttr fails the test unless e carries key = want.
func wantEventAttr(t *testing.T, e sdktrace.Event, key attribute.Key, want any) {
	t.Helper()
	for _, kv := range e.Attributes {
		if kv.Key == key && kv.Value.AsInterface() == want {
			return
		}
	}
	t.Errorf("event %s lacks %s = %v: %v", e.Name, key, want, e.Attributes)
}

func TestTraceparentSurvivesARetryRepublish(t *testing.T) {
	tracing, rec, _, conn := tracedOrders(t)
	consume(t, context.Background(), conn, "orders", otel.Handle(tracing, "orders", decide), fastRetry)
	if err := otel.NewPublisher[Order](tracing, conn, "", "orders").Send(context.Background(), Order{ID: "retry-then-accept"}); err != nil {
		t.Fatal(err)
	}
	publish := ended(t, rec, "orders publish", 1)[0]
	spans := ended(t, rec, "orders process", 2)
	for _, s := range spans {
		if s.Parent().SpanID() != publish.SpanContext().SpanID() || s.SpanContext().TraceID() != publish.SpanContext().TraceID() {
			t.Errorf("attempt %v has parent %v, want the publish span", attrs(s)[otel.AttrAttempt].AsInt64(), s.Parent())
		}
	}
	if a, b := attrs(spans[0])[otel.AttrAttempt].AsInt64(), attrs(spans[1])[otel.AttrAttempt].AsInt64(); a+b != 3 {
		t.Errorf("attempts %d and %d, want 1 and 2", a, b)
	}
}

func TestHandleOutsideAConsumerEndsTheSpanWithTheOutcomeTheHandlerAskedFor(t *testing.T) {
	tracing, rec, tp := traced(t)
	parentCtx, parent := ambient(t, tp)
	env, err := acemq.NewEnvelope("orders", acemq.Header("traceparent", []byte(traceparentOf(parent.SpanContext()))))
	if err != nil {
		t.Fatal(err)
	}
	h := otel.Handle(tracing, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		return acemq.Reject(errors.New("acemq: no"))
	})
	h(context.Background(), acemq.Message[Order]{Envelope: env, RoutingKey: "orders"})
	span := endedWithOutcome(t, rec, "orders process", "rejected")
	if span.Status().Code != codes.Error || span.Parent().SpanID() != trace.SpanFromContext(parentCtx).SpanContext().SpanID() {
		t.Errorf("status %v parent %v, want ERROR under the []byte traceparent's span", span.Status(), span.Parent())
	}
}

func TestMiddlewareTracesTheHandlerItWraps(t *testing.T) {
	tracing, rec, _ := traced(t)
	var handled bool
	h := otel.Middleware[Order](tracing, "orders")(func(context.Context, acemq.Message[Order]) acemq.Ack {
		handled = true
		return acemq.Park(errors.New("acemq: later"))
	})
	h(context.Background(), acemq.Message[Order]{})
	span := endedWithOutcome(t, rec, "orders process", "parked")
	if !handled || span.Status().Code != codes.Unset {
		t.Errorf("handled %v status %v, want the handler run and a parked span not an error", handled, span.Status())
	}
}

func TestTheProcessSpanEndsWhenTheHandlerReturnsNotAfterTheRetryWait(t *testing.T) {
	tracing, rec, _ := traced(t)
	conn := connect(t, "", []string{"orders"})
	returned := make(chan time.Time, 2)
	inner := otel.Handle(tracing, "orders", decide)
	consume(t, context.Background(), conn, "orders", func(ctx context.Context, m acemq.Message[Order]) acemq.Ack {
		ack := inner(ctx, m)
		returned <- time.Now()
		return ack
	}, fastRetry)
	if err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{ID: "retry-then-accept"}); err != nil {
		t.Fatal(err)
	}
	retried := withOutcome(ended(t, rec, "orders process", 2), "retried")[0]
	if first := <-returned; retried.EndTime().After(first) {
		t.Errorf("the retried span ended at %v, after its handler returned at %v", retried.EndTime(), first)
	}
	if e := event(t, retried, otel.EventMessageRetried); e.Time.After(retried.EndTime()) {
		t.Errorf("the retry event at %v is after the span's end %v", e.Time, retried.EndTime())
	}
}
