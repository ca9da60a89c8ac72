package acemq_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

func TestMandatoryUnroutablePublishFailsNamingNoRoute(t *testing.T) {
	conn := connect(t)
	pub := acemq.NewPublisher[Order](conn, "", "nowhere", acemq.Mandatory[Order]())
	res, err := pub.SendResult(context.Background(), Order{}, acemq.MessageID("m-1"))
	var pf *acemq.PublishFailedError
	if !errors.As(err, &pf) || !pf.Unroutable || pf.MessageID != "m-1" || pf.RoutingKey != "nowhere" {
		t.Fatalf("got %v (%+v)", err, pf)
	}
	want := `acemq: message m-1 to exchange "" with key "nowhere" reached no queue: 312 NO_ROUTE`
	if err.Error() != want || !errors.Is(err, acemq.ErrUnroutable) || res.Routed {
		t.Fatalf("got %q, result %+v", err, res)
	}
}

func TestNonMandatoryUnroutablePublishIsSilent(t *testing.T) {
	conn := connect(t)
	if err := acemq.NewPublisher[Order](conn, "", "nowhere").Send(context.Background(), Order{}); err != nil {
		t.Fatal(err)
	}
}

func TestPublishToAnUndeclaredExchangeFailsNamingTheMessage(t *testing.T) {
	conn := connect(t)
	err := acemq.NewPublisher[Order](conn, "ghost", "k").Send(context.Background(), Order{}, acemq.MessageID("m-2"))
	var pf *acemq.PublishFailedError
	if !errors.As(err, &pf) || pf.Unroutable || !strings.Contains(err.Error(), "cannot publish message m-2") ||
		!strings.Contains(err.Error(), "NOT_FOUND") {
		t.Fatalf("got %v", err)
	}
}

func TestSendResultReportsTheBrokersConfirm(t *testing.T) {
	conn := ordersConn(t)
	res, err := acemq.NewPublisher[Order](conn, "", "orders").SendResult(context.Background(), Order{}, acemq.MessageID("m-3"))
	if err != nil || !res.Confirmed || !res.Routed || res.MessageID != "m-3" {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestEncodeFailureNamesTheTypeAndRoutingKey(t *testing.T) {
	conn := connect(t)
	err := acemq.NewPublisher[chan int](conn, "", "orders").Send(context.Background(), make(chan int))
	if err == nil || !strings.HasPrefix(err.Error(), `acemq: cannot encode a chan int for "orders": `) {
		t.Fatalf("got %v", err)
	}
}

func TestARequiredHeaderRuleFailsThePublishBeforeAnythingIsSent(t *testing.T) {
	conn := ordersConn(t)
	pub := acemq.NewPublisher[Order](conn, "", "orders", acemqimpl.PublishHeaderRules[Order](acemq.HeaderRule{Name: "x-tenant", Required: true}))
	err := pub.Send(context.Background(), Order{})
	if err == nil || err.Error() != `acemq: a "orders" message requires the header "x-tenant"` {
		t.Fatalf("got %v", err)
	}
	if n := count(t, conn, "orders"); n != 0 {
		t.Fatalf("%d messages were sent", n)
	}
	if err := pub.Send(context.Background(), Order{}, acemq.Header("x-tenant", "acme")); err != nil {
		t.Fatal(err)
	}
}

func TestWithEnvelopeDefaultsApplyBeforeTheCallersOptions(t *testing.T) {
	conn := ordersConn(t)
	pub := acemq.NewPublisher[Order](conn, "", "orders", acemq.WithEnvelope[Order](acemq.SchemaVersion(2), acemq.MessageType("order.placed")))
	_ = pub.Send(context.Background(), Order{}, acemq.SchemaVersion(3))
	d := awaitMessage(t, conn, "orders")
	env := acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)
	if env.Version != 3 || env.Type != "order.placed" {
		t.Fatalf("envelope %+v", env)
	}
}

func TestNotPersistentAndSendEnvelopeReachTheWire(t *testing.T) {
	conn := ordersConn(t)
	pub := acemq.NewPublisher[Order](conn, "", "orders", acemq.NotPersistent[Order]())
	err := pub.SendEnvelope(context.Background(), Order{}, acemq.Envelope{ID: "fixed-id", CausationID: "cause"})
	if err != nil {
		t.Fatal(err)
	}
	d := awaitMessage(t, conn, "orders")
	env := acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)
	if d.MessageID != "fixed-id" || env.CorrelationID != "fixed-id" || env.CausationID != "cause" || env.Type != "orders" || env.Attempt != 1 {
		t.Fatalf("envelope %+v", env)
	}
}

func TestSendAllReturnsResultsInPayloadOrder(t *testing.T) {
	var mu sync.Mutex
	idOf := map[string]string{} // payload ID -> message ID
	record := func(_ context.Context, c *acemq.PublishContext) error {
		mu.Lock()
		defer mu.Unlock()
		idOf[c.Payload.(Order).ID] = c.Envelope.ID
		return nil
	}
	conn := connect(t, acemq.WithPublishInterceptor(record))
	declare(t, conn, "orders")
	payloads := make([]Order, 20)
	for i := range payloads {
		payloads[i] = Order{ID: fmt.Sprint(i)}
	}
	results, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), payloads)
	if err != nil || len(results) != 20 {
		t.Fatalf("%d results, %v", len(results), err)
	}
	for i, r := range results {
		if !r.Confirmed || r.MessageID != idOf[fmt.Sprint(i)] {
			t.Fatalf("result %d is %+v, want message %s", i, r, idOf[fmt.Sprint(i)])
		}
	}
	if n := count(t, conn, "orders"); n != 20 {
		t.Fatalf("%d published", n)
	}
}

func TestSendAllPartialFailureCountsAndQuotesTheFirstFailure(t *testing.T) {
	refuseOdd := func(_ context.Context, c *acemq.PublishContext) error {
		if o := c.Payload.(Order); o.Total%2 == 1 {
			return fmt.Errorf("refused %d", o.Total)
		}
		return nil
	}
	conn := connect(t, acemq.WithPublishInterceptor(refuseOdd))
	declare(t, conn, "orders")
	payloads := []Order{{Total: 0}, {Total: 1}, {Total: 2}, {Total: 3}, {Total: 4}}
	results, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), payloads)
	var be *acemq.BatchPublishFailedError
	if !errors.As(err, &be) || len(results) != 5 {
		t.Fatalf("got %v, %d results", err, len(results))
	}
	if err.Error() != "2 of 5 messages were not confirmed; 3 were. The first failure was: refused 1" {
		t.Errorf("message %q", err)
	}
	if be.Total != 5 || be.Confirmed != 3 || be.Failed != 2 || len(be.Errors) != 2 || be.First.Error() != "refused 1" {
		t.Errorf("%+v", be)
	}
	if !errors.Is(err, be.First) || !results[0].Confirmed || results[1].Confirmed {
		t.Errorf("unwrap or results wrong: %+v", results)
	}
}

func TestSendAllOfNothingSucceeds(t *testing.T) {
	conn := connect(t)
	results, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), nil)
	if err != nil || len(results) != 0 {
		t.Fatalf("%v %v", results, err)
	}
}

func TestPublishWithANilCodecFailsEverySend(t *testing.T) {
	conn := connect(t)
	err := acemq.NewPublisher[Order](conn, "", "orders", acemq.PublishWith[Order](nil)).Send(context.Background(), Order{})
	if err == nil || err.Error() != "acemq: PublishWith was given a nil codec" {
		t.Fatalf("got %v", err)
	}
}
