package otel_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

func TestPublisherSpanIsAProducerSpanNamedForTheQueueWithTheFamilysAttributes(t *testing.T) {
	tracing, rec, _, conn := tracedOrders(t)
	res := sendOrder(t, tracing, conn, Order{ID: "1"}, acemq.CorrelationID("conv-1"))
	span := ended(t, rec, "orders publish", 1)[0]
	wantKindAttrsUnset(t, span, trace.SpanKindProducer, "producer", map[attribute.Key]any{
		otel.AttrSystem: "rabbitmq", otel.AttrDestination: "orders", otel.AttrOperation: "publish",
		otel.AttrMessageID: res.MessageID, otel.AttrConversationID: "conv-1", otel.AttrRoutingKey: "orders",
		otel.AttrMessageType: "orders", otel.AttrAttempt: int64(1), otel.AttrOutcome: "confirmed",
	}, "a confirmed publish")
}

func TestPublishedMessageCarriesThePublishSpansTraceparent(t *testing.T) {
	tracing, rec, _, conn := tracedOrders(t)
	if err := otel.NewPublisher[Order](tracing, conn, "", "orders").Send(context.Background(), Order{}); err != nil {
		t.Fatal(err)
	}
	span := ended(t, rec, "orders publish", 1)[0]
	if got, want := pull(t, conn, "orders").Headers["traceparent"], traceparentOf(span.SpanContext()); got != want {
		t.Errorf("traceparent %v, want %v", got, want)
	}
}

func TestPublishSpanIsAChildOfTheCallersSpan(t *testing.T) {
	tracing, rec, tp, conn := tracedOrders(t)
	ctx, parent := ambient(t, tp)
	if err := otel.NewPublisher[Order](tracing, conn, "", "orders").Send(ctx, Order{}); err != nil {
		t.Fatal(err)
	}
	span := ended(t, rec, "orders publish", 1)[0]
	if span.Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("parent %v, want the caller's span %v", span.Parent().SpanID(), parent.SpanContext().SpanID())
	}
}

func TestTheInterceptorOpensTheSpanOfAPlainPublisher(t *testing.T) {
	_, rec, tp, conn := tracedOrders(t)
	ctx, parent := ambient(t, tp)
	if err := acemq.NewPublisher[Order](conn, "", "orders").Send(ctx, Order{}); err != nil {
		t.Fatal(err)
	}
	span := ended(t, rec, "orders publish", 1)[0]
	if span.Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("parent %v, want the caller's span", span.Parent().SpanID())
	}
	wantAttrs(t, span, map[attribute.Key]any{otel.AttrOutcome: "confirmed", otel.AttrMessageType: "orders"})
	if got := pull(t, conn, "orders").Headers["traceparent"]; got != traceparentOf(span.SpanContext()) {
		t.Errorf("traceparent %v, want the interceptor's span", got)
	}
}

func TestAPublisherWithoutTheInterceptorStillWritesTraceparentAndEndsItsSpan(t *testing.T) {
	tracing, rec, _ := traced(t)
	conn := connect(t, "", []string{"orders"})
	res := sendOrder(t, tracing, conn, Order{})
	span := ended(t, rec, "orders publish", 1)[0]
	wantAttrs(t, span, map[attribute.Key]any{otel.AttrMessageID: res.MessageID, otel.AttrOutcome: "confirmed"})
	if got := pull(t, conn, "orders").Headers["traceparent"]; got != traceparentOf(span.SpanContext()) {
		t.Errorf("traceparent %v, want the publisher's span", got)
	}
}

func TestAnUnroutablePublishIsAnErrorSpanWithTheReason(t *testing.T) {
	tracing, rec, _ := traced(t)
	conn := connect(t, "", nil, acemq.WithPublishInterceptor(tracing.PublishInterceptor()))
	err := otel.NewPublisher(tracing, conn, "", "nowhere", acemq.Mandatory[Order]()).Send(context.Background(), Order{})
	if !errors.Is(err, acemq.ErrUnroutable) {
		t.Fatalf("err %v, want unroutable", err)
	}
	span := endedWithOutcome(t, rec, "nowhere publish", "unroutable")
	wantStatus(t, span, codes.Error, "ERROR")
	if reason := attrs(span)[otel.AttrReason].AsString(); !strings.Contains(reason, "reached no queue") {
		t.Errorf("reason %q, want the broker's", reason)
	}
}

func TestAPublishALaterInterceptorRefusedIsAFailedErrorSpan(t *testing.T) {
	tracing, rec, _ := traced(t)
	refusal := errors.New("acemq: not today")
	conn := connect(t, "", []string{"orders"},
		acemq.WithPublishInterceptor(tracing.PublishInterceptor()),
		acemq.WithPublishInterceptor(func(context.Context, *acemq.PublishContext) error { return refusal }))
	if err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{}); !errors.Is(err, refusal) {
		t.Fatalf("err %v, want the refusal", err)
	}
	span := endedWithOutcome(t, rec, "orders publish", "failed")
	if span.Status().Code != codes.Error || span.Status().Description != refusal.Error() {
		t.Errorf("status %v, want ERROR with the refusal", span.Status())
	}
}

func TestAPublishWithoutConfirmsIsPublishedAndNotAnError(t *testing.T) {
	tracing, rec, _ := traced(t)
	conn := connect(t, "?confirms=off", []string{"orders"}, acemq.WithPublishInterceptor(tracing.PublishInterceptor()))
	if err := otel.NewPublisher[Order](tracing, conn, "", "orders").Send(context.Background(), Order{}); err != nil {
		t.Fatal(err)
	}
	span := endedWithOutcome(t, rec, "orders publish", "published")
	wantStatus(t, span, codes.Unset, "unset")
}

func TestAnExchangePublishIsNamedForTheExchange(t *testing.T) {
	tracing, rec, _, conn := tracedOrders(t)
	topo := acemq.NewTopology().Exchange("shop", "topic").Queue("orders").Binding("orders", "shop", "order.#")
	if err := topo.Apply(context.Background(), conn); err != nil {
		t.Fatal(err)
	}
	if err := otel.NewPublisher[Order](tracing, conn, "shop", "order.placed").Send(context.Background(), Order{}); err != nil {
		t.Fatal(err)
	}
	span := ended(t, rec, "shop publish", 1)[0]
	wantAttrs(t, span, map[attribute.Key]any{otel.AttrDestination: "shop", otel.AttrRoutingKey: "order.placed"})
}

func TestSendAllOpensOneSpanPerMessageEachWithItsOwnTraceparent(t *testing.T) {
	tracing, rec, _, conn := tracedOrders(t)
	results, err := otel.NewPublisher[Order](tracing, conn, "", "orders").
		SendAll(context.Background(), []Order{{ID: "1"}, {ID: "2"}, {ID: "3"}})
	if err != nil || len(results) != 3 {
		t.Fatalf("results %v, err %v", results, err)
	}
	spans := ended(t, rec, "orders publish", 3)
	want := map[string]bool{}
	for _, s := range spans {
		want[traceparentOf(s.SpanContext())] = true
	}
	for range 3 {
		tp, _ := pull(t, conn, "orders").Headers["traceparent"].(string)
		if !want[tp] {
			t.Errorf("traceparent %q is no span's, or is repeated", tp)
		}
		delete(want, tp)
	}
}

func TestSendAllReportsEachFailureInPayloadOrder(t *testing.T) {
	tracing, rec, _ := traced(t)
	conn := connect(t, "", nil, acemq.WithPublishInterceptor(tracing.PublishInterceptor()))
	_, err := otel.NewPublisher(tracing, conn, "", "nowhere", acemq.Mandatory[Order]()).
		SendAll(context.Background(), []Order{{ID: "1"}, {ID: "2"}})
	var batch *acemq.BatchPublishFailedError
	if !errors.As(err, &batch) || batch.Failed != 2 || batch.Total != 2 {
		t.Fatalf("err %v, want a batch failure of 2 of 2", err)
	}
	for _, s := range ended(t, rec, "nowhere publish", 2) {
		if s.Status().Code != codes.Error {
			t.Errorf("status %v, want ERROR", s.Status())
		}
	}
}

func TestSendEnvelopeLeavesTheCallersHeadersAlone(t *testing.T) {
	tracing, rec, _, conn := tracedOrders(t)
	headers := map[string]any{"x-shop-tenant": "t1"}
	err := otel.NewPublisher[Order](tracing, conn, "", "orders").
		SendEnvelope(context.Background(), Order{}, acemq.Envelope{Headers: headers})
	if err != nil {
		t.Fatal(err)
	}
	span := ended(t, rec, "orders publish", 1)[0]
	if _, ok := headers["traceparent"]; ok {
		t.Error("SendEnvelope wrote traceparent into the caller's map")
	}
	d := pull(t, conn, "orders")
	if d.Headers["traceparent"] != traceparentOf(span.SpanContext()) || d.Headers["x-shop-tenant"] != "t1" {
		t.Errorf("headers %v, want the span's traceparent and the tenant", d.Headers)
	}
}

func TestThePublishSpanRecordsWhatALaterInterceptorLeft(t *testing.T) {
	tracing, rec, _ := traced(t)
	reroute := func(_ context.Context, pc *acemq.PublishContext) error {
		pc.RoutingKey, pc.Envelope.Type = "invoices", "invoice.due"
		return nil
	}
	conn := connect(t, "", []string{"orders", "invoices"},
		acemq.WithPublishInterceptor(tracing.PublishInterceptor()), acemq.WithPublishInterceptor(reroute))
	if err := otel.NewPublisher[Order](tracing, conn, "", "orders").Send(context.Background(), Order{}); err != nil {
		t.Fatal(err)
	}
	span := ended(t, rec, "invoices publish", 1)[0]
	wantAttrs(t, span, map[attribute.Key]any{
		otel.AttrDestination: "invoices", otel.AttrRoutingKey: "invoices", otel.AttrMessageType: "invoice.due",
	})
}
