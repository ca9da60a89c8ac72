package rabbitmq

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestMessageTravelsWithEveryPropertyAndIsConfirmed(t *testing.T) {
	tr, c := openTransport(t), newCleaner(t)
	ctx, q := ctxT(t), c.declared(tr, "props", driver.QueueSpec{Durable: true})
	box, sub := consumeInbox(ctx, t, tr, q, 10)
	defer sub.Close()
	out := driver.Outbound{Body: []byte(`{"a":1}`), ContentType: "application/json", MessageID: "m-1",
		Headers: map[string]any{"x-acemq-type": "order.placed", "n": int64(3), "big": 5_000_000_000}, ReplyTo: "replies",
		CorrelationID: "c-1", Expiration: "60000", Persistent: true}
	res, err := tr.Publish(ctx, "", q, out)
	if err != nil || !res.Confirmed || !res.Routed || res.MessageID != "m-1" {
		t.Fatalf("Publish = %+v, %v; want confirmed and routed m-1", res, err)
	}
	d := box.next(t)
	if string(d.Body) != `{"a":1}` || d.ContentType != "application/json" || d.MessageID != "m-1" ||
		d.ReplyTo != "replies" || d.CorrelationID != "c-1" || d.Expiration != "60000" ||
		d.RoutingKey != q || d.Exchange != "" || d.Redelivered {
		t.Fatalf("delivery = %+v", d)
	}
	if d.Headers["x-acemq-type"] != "order.placed" || d.Headers["n"] != int64(3) || d.Headers["big"] != int64(5_000_000_000) {
		t.Fatalf("headers = %#v", d.Headers)
	}
	if err := d.Ack(); err != nil {
		t.Fatal(err)
	}
}

func TestUnroutableMandatoryMessageComesBackWithNoRoute(t *testing.T) {
	tr, c := openTransport(t), newCleaner(t)
	ctx, x := ctxT(t), c.exchange(unique("nowhere"))
	if err := tr.DeclareExchange(ctx, x, driver.ExchangeSpec{Kind: "direct"}); err != nil {
		t.Fatal(err)
	}
	res, err := tr.Publish(ctx, x, "k", driver.Outbound{MessageID: "lost", Mandatory: true})
	if err != nil || res.Routed || res.ReturnReason != "312 NO_ROUTE" || !res.Confirmed {
		t.Fatalf("Publish = %+v, %v; want confirmed, not routed, 312 NO_ROUTE", res, err)
	}
	res, err = tr.Publish(ctx, x, "k", driver.Outbound{MessageID: "dropped"})
	if err != nil || !res.Routed {
		t.Fatalf("non-mandatory Publish = %+v, %v; want routed (the broker drops it silently)", res, err)
	}
}

func TestEachReturnInAConcurrentBatchReachesItsOwnMessage(t *testing.T) {
	tr, c := openTransport(t, MaxOutstandingPublishes(8)), newCleaner(t)
	ctx, x, q := ctxT(t), c.exchange(unique("batch")), c.queue(unique("batch"))
	mustDeclare(t, tr, x, q, "ok")
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 200 {
		wg.Go(func() {
			key := []string{"ok", "nope"}[i%2]
			id := fmt.Sprintf("m-%d", i)
			res, err := tr.Publish(ctx, x, key, driver.Outbound{MessageID: id, Mandatory: true})
			if err != nil || res.Routed != (key == "ok") || res.MessageID != id {
				errs <- fmt.Errorf("%s via %q: %+v, %v", id, key, res, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestBrokerNackIsTheBrokerRefusedIt(t *testing.T) {
	tr, c := openTransport(t), newCleaner(t)
	ctx, q := ctxT(t), c.queue(unique("full"))
	args := map[string]any{"x-max-length": 1, "x-overflow": "reject-publish"}
	if err := tr.DeclareQueue(ctx, q, driver.QueueSpec{Args: args}); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "first"}); err != nil {
		t.Fatal(err)
	}
	_, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "second"})
	if !errors.Is(err, ErrBrokerRefused) || err.Error() != "the broker refused it" {
		t.Fatalf("err = %v, want ErrBrokerRefused", err)
	}
}

func TestRedeclareWithOtherArgumentsNamesQueueAndArgumentAndKeepsTheConnection(t *testing.T) {
	tr, c := openTransport(t), newCleaner(t)
	ctx, q := ctxT(t), c.declared(tr, "drift", driver.QueueSpec{Args: map[string]any{"x-message-ttl": 1000}})
	err := tr.DeclareQueue(ctx, q, driver.QueueSpec{Args: map[string]any{"x-message-ttl": 2000}})
	for _, want := range []string{"PRECONDITION_FAILED", q, "x-message-ttl"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("err = %v, want it to name %q", err, want)
		}
	}
	conn := tr.liveConn()
	if _, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "after"}); err != nil || conn.IsClosed() {
		t.Fatalf("after the refusal: publish err %v, connection closed %v", err, conn.IsClosed())
	}
}

func TestManyPublishesThroughAWindowOfOneAreAllConfirmed(t *testing.T) {
	tr, c := openTransport(t, MaxOutstandingPublishes(1)), newCleaner(t)
	ctx, q := ctxT(t), c.declared(tr, "one", driver.QueueSpec{})
	var wg sync.WaitGroup
	var failed sync.Map
	for i := range 50 {
		wg.Go(func() {
			if _, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: fmt.Sprint(i)}); err != nil {
				failed.Store(i, err)
			}
		})
	}
	wg.Wait()
	failed.Range(func(k, v any) bool { t.Errorf("publish %v: %v", k, v); return true })
	if n, err := tr.MessageCount(ctx, q); err != nil || n != 50 {
		t.Fatalf("MessageCount = %d, %v; want 50", n, err)
	}
}

func TestWithoutConfirmsPublishesUnconfirmedAndRouted(t *testing.T) {
	tr, c := openTransport(t, WithoutConfirms()), newCleaner(t)
	ctx, q := ctxT(t), c.declared(tr, "noconf", driver.QueueSpec{})
	res, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "m"})
	if err != nil || res.Confirmed || !res.Routed {
		t.Fatalf("Publish = %+v, %v; want unconfirmed and routed", res, err)
	}
	if d, ok, err := tr.Pull(ctx, q); err != nil || !ok || d.MessageID != "m" {
		t.Fatalf("Pull = %+v, %v, %v; want message m", d, ok, err)
	}
}

func TestClosingASubscriptionReturnsUnsettledMessagesRedelivered(t *testing.T) {
	tr, c := openTransport(t), newCleaner(t)
	ctx, q := ctxT(t), c.declared(tr, "close", driver.QueueSpec{})
	if _, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "m"}); err != nil {
		t.Fatal(err)
	}
	first, sub := consumeInbox(ctx, t, tr, q, 1)
	if d := first.next(t); d.Redelivered {
		t.Fatal("first delivery marked redelivered")
	}
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	second, sub2 := consumeInbox(ctx, t, tr, q, 1)
	defer sub2.Close()
	if d := second.next(t); d.MessageID != "m" || !d.Redelivered {
		t.Fatalf("after Close: %+v, want m redelivered", d)
	}
}

func TestConsumingAnUndeclaredQueueFailsNamingIt(t *testing.T) {
	tr := openTransport(t)
	q := unique("ghost")
	_, err := tr.Consume(ctxT(t), q, driver.ConsumeSpec{}, func(driver.Delivery) {})
	if err == nil || !strings.Contains(err.Error(), q) || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Fatalf("err = %v, want NOT_FOUND naming the queue", err)
	}
}

// mustDeclare declares direct exchange x and queue q bound with key.
func mustDeclare(t *testing.T, tr *Transport, x, q, key string) {
	t.Helper()
	ctx := ctxT(t)
	if err := tr.DeclareExchange(ctx, x, driver.ExchangeSpec{Kind: "direct"}); err != nil {
		t.Fatal(err)
	}
	if err := tr.DeclareQueue(ctx, q, driver.QueueSpec{}); err != nil {
		t.Fatal(err)
	}
	if err := tr.Bind(ctx, q, x, key); err != nil {
		t.Fatal(err)
	}
}

func TestCloseLeavesNoGoroutineBehind(t *testing.T) {
	url := brokerURL(t)
	before := runtime.NumGoroutine()
	tr, err := Dial(ctxT(t), url)
	if err != nil {
		t.Fatal(err)
	}
	ctx, q := ctxT(t), unique("leak")
	if err := tr.DeclareQueue(ctx, q, driver.QueueSpec{AutoDelete: true}); err != nil {
		t.Fatal(err)
	}
	box, _ := consumeInbox(ctx, t, tr, q, 1)
	if _, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "m", Mandatory: true}); err != nil {
		t.Fatal(err)
	}
	box.next(t)
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after Close, %d before Dial", n, before)
	}
}
