package acemq

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/internal/testpoll"
)

// dialTest opens a memory transport on a broker private to the test.
func dialTest(t *testing.T, query string) driver.Transport {
	t.Helper()
	tr, err := dialMemory(context.Background(), memURL(t)+query, driver.Extensions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.Close() })
	return tr
}

func mustDeclareQueue(t *testing.T, tr driver.Transport, name string, args map[string]any) {
	t.Helper()
	if err := tr.DeclareQueue(context.Background(), name, driver.QueueSpec{Durable: true, Args: args}); err != nil {
		t.Fatal(err)
	}
}

func mustPublish(t *testing.T, tr driver.Transport, exchange, key, body string) PublishResult {
	t.Helper()
	res, err := tr.Publish(context.Background(), exchange, key, driver.Outbound{Body: []byte(body), MessageID: body})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// boundQueue declares the exchange of kind and the queue, bound to it with
// key (ignoring their errors, as the tests that use it always did).
func boundQueue(t *testing.T, tr driver.Transport, exchange, kind, queue, key string) {
	t.Helper()
	ctx := context.Background()
	_ = tr.DeclareExchange(ctx, exchange, driver.ExchangeSpec{Kind: kind})
	mustDeclareQueue(t, tr, queue, nil)
	_ = tr.Bind(ctx, queue, exchange, key)
}

func pullBody(t *testing.T, tr driver.Transport, queue string) (string, bool) {
	t.Helper()
	d, ok, err := tr.(driver.Puller).Pull(context.Background(), queue)
	if err != nil {
		t.Fatal(err)
	}
	return string(d.Body), ok
}

// waitFor polls cond with millisecond steps; it fails the test after 3s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testpoll.Until(t, 3*time.Second, time.Millisecond, what, cond)
}

func TestMemoryDistinctURLsAreDistinctBrokersAndTheSameURLIsTheSameBroker(t *testing.T) {
	ctx := context.Background()
	a1 := dialTest(t, "")
	a2 := dialTest(t, "")
	other, _ := dialMemory(ctx, memURL(t)+"-other", driver.Extensions{})
	mustDeclareQueue(t, a1, "q", nil)
	mustPublish(t, a2, "", "q", "hello")
	if body, ok := pullBody(t, a1, "q"); !ok || body != "hello" {
		t.Fatalf("same URL: got %q, %v", body, ok)
	}
	if _, _, err := other.(driver.Puller).Pull(ctx, "q"); err == nil || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Fatalf("another URL must not see the queue, got %v", err)
	}
}

func TestMemoryExchangesRouteByKind(t *testing.T) {
	ctx := context.Background()
	tr := dialTest(t, "")
	for _, q := range []string{"direct", "topic", "fanout"} {
		mustDeclareQueue(t, tr, q, nil)
		if err := tr.DeclareExchange(ctx, "x."+q, driver.ExchangeSpec{Kind: q}); err != nil {
			t.Fatal(err)
		}
	}
	_ = tr.Bind(ctx, "direct", "x.direct", "order.placed")
	_ = tr.Bind(ctx, "topic", "x.topic", "order.*")
	_ = tr.Bind(ctx, "fanout", "x.fanout", "ignored")
	mustPublish(t, tr, "x.direct", "order.placed", "d")
	mustPublish(t, tr, "x.direct", "order.other", "lost")
	mustPublish(t, tr, "x.topic", "order.shipped", "t")
	mustPublish(t, tr, "x.fanout", "whatever", "f")
	for q, want := range map[string]string{"direct": "d", "topic": "t", "fanout": "f"} {
		if body, _ := pullBody(t, tr, q); body != want {
			t.Errorf("queue %s got %q, want %q", q, body, want)
		}
		if _, ok := pullBody(t, tr, q); ok {
			t.Errorf("queue %s got a second message", q)
		}
	}
}

func TestMemoryMandatoryUnroutableIsReturnedWithNoRoute(t *testing.T) {
	tr := dialTest(t, "")
	res, err := tr.Publish(context.Background(), "", "nowhere", driver.Outbound{MessageID: "m1", Mandatory: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Routed || res.ReturnReason != "312 NO_ROUTE" || !res.Confirmed || res.MessageID != "m1" {
		t.Fatalf("got %+v", res)
	}
	if res := mustPublish(t, tr, "", "nowhere", "x"); !res.Routed {
		t.Fatalf("a message that is not mandatory is not returned: %+v", res)
	}
}

func TestMemoryConfirmsOffReportsUnconfirmed(t *testing.T) {
	tr := dialTest(t, "?confirms=off")
	mustDeclareQueue(t, tr, "q", nil)
	if res := mustPublish(t, tr, "", "q", "x"); res.Confirmed || !res.Routed {
		t.Fatalf("got %+v", res)
	}
}

func TestMemoryRedeclareWithDifferentSettingsIsPreconditionFailed(t *testing.T) {
	tr := dialTest(t, "")
	mustDeclareQueue(t, tr, "rung", map[string]any{"x-message-ttl": int64(5000)})
	mustDeclareQueue(t, tr, "rung", map[string]any{"x-message-ttl": 5000}) // same value, other width
	err := tr.DeclareQueue(context.Background(), "rung", driver.QueueSpec{Durable: true, Args: map[string]any{"x-message-ttl": 6000}})
	if err == nil {
		t.Fatal("redeclare with another TTL was accepted")
	}
	for _, want := range []string{"PRECONDITION_FAILED", "'rung'", "x-message-ttl"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	_ = tr.DeclareExchange(context.Background(), "x", driver.ExchangeSpec{Kind: "topic"})
	if err := tr.DeclareExchange(context.Background(), "x", driver.ExchangeSpec{Kind: "direct"}); err == nil ||
		!strings.Contains(err.Error(), "PRECONDITION_FAILED") {
		t.Fatalf("exchange kind change: %v", err)
	}
}

func TestMemoryConsumeAndBindOfUndeclaredThingsAreNotFound(t *testing.T) {
	ctx := context.Background()
	tr := dialTest(t, "")
	if _, err := tr.Consume(ctx, "ghost", driver.ConsumeSpec{}, func(driver.Delivery) {}); err == nil || !strings.Contains(err.Error(), "404 NOT_FOUND") {
		t.Errorf("consume: %v", err)
	}
	mustDeclareQueue(t, tr, "q", nil)
	if err := tr.Bind(ctx, "q", "ghost-x", "k"); err == nil || !strings.Contains(err.Error(), "404 NOT_FOUND") {
		t.Errorf("bind to missing exchange: %v", err)
	}
	_ = tr.DeclareExchange(ctx, "x", driver.ExchangeSpec{Kind: "direct"})
	if err := tr.Bind(ctx, "ghost-q", "x", "k"); err == nil || !strings.Contains(err.Error(), "404 NOT_FOUND") {
		t.Errorf("bind of missing queue: %v", err)
	}
}

// collector records deliveries.
type collector struct {
	mu sync.Mutex
	ds []driver.Delivery
}

func (c *collector) deliver(d driver.Delivery) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ds = append(c.ds, d)
}

func (c *collector) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.ds)
}

func (c *collector) at(i int) driver.Delivery {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ds[i]
}

func TestMemoryPrefetchBoundsUnsettledDeliveries(t *testing.T) {
	tr := dialTest(t, "")
	mustDeclareQueue(t, tr, "q", nil)
	for range 5 {
		mustPublish(t, tr, "", "q", "m")
	}
	var c collector
	if _, err := tr.Consume(context.Background(), "q", driver.ConsumeSpec{Prefetch: 2}, c.deliver); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "two deliveries", func() bool { return c.count() == 2 })
	if n, _ := tr.(driver.QueueInspector).MessageCount(context.Background(), "q"); n != 3 {
		t.Fatalf("with prefetch 2, %d messages are still ready, want 3", n)
	}
	_ = c.at(0).Ack()
	waitFor(t, "a third delivery after one ack", func() bool { return c.count() == 3 })
	if n, _ := tr.(driver.QueueInspector).MessageCount(context.Background(), "q"); n != 2 {
		t.Fatalf("after one ack %d are ready, want 2", n)
	}
}

func TestMemoryCompetingConsumersAreServedRoundRobin(t *testing.T) {
	tr := dialTest(t, "")
	mustDeclareQueue(t, tr, "q", nil)
	var a, b collector
	_, _ = tr.Consume(context.Background(), "q", driver.ConsumeSpec{}, a.deliver)
	_, _ = tr.Consume(context.Background(), "q", driver.ConsumeSpec{}, b.deliver)
	for range 6 {
		mustPublish(t, tr, "", "q", "m")
	}
	waitFor(t, "six deliveries", func() bool { return a.count()+b.count() == 6 })
	if a.count() != 3 || b.count() != 3 {
		t.Fatalf("split %d/%d, want 3/3", a.count(), b.count())
	}
}

func TestMemoryNackWithRequeueRedeliversMarkedRedelivered(t *testing.T) {
	tr := dialTest(t, "")
	mustDeclareQueue(t, tr, "q", nil)
	mustPublish(t, tr, "", "q", "m")
	var c collector
	_, _ = tr.Consume(context.Background(), "q", driver.ConsumeSpec{Prefetch: 1}, c.deliver)
	waitFor(t, "first delivery", func() bool { return c.count() == 1 })
	if c.at(0).Redelivered {
		t.Fatal("a first delivery is not redelivered")
	}
	_ = c.at(0).Nack(true)
	waitFor(t, "redelivery", func() bool { return c.count() == 2 })
	if !c.at(1).Redelivered || string(c.at(1).Body) != "m" {
		t.Fatalf("got %+v", c.at(1))
	}
	if err := c.at(0).Ack(); err == nil {
		t.Fatal("settling a delivery twice must fail")
	}
}

func TestMemoryNackWithoutRequeueDeadLettersThroughTheQueueArguments(t *testing.T) {
	ctx := context.Background()
	tr := dialTest(t, "")
	boundQueue(t, tr, "dlx", "direct", "q.dlq", "q.dlq")
	mustDeclareQueue(t, tr, "q", map[string]any{"x-dead-letter-exchange": "dlx", "x-dead-letter-routing-key": "q.dlq"})
	mustPublish(t, tr, "", "q", "poison")
	var c collector
	_, _ = tr.Consume(ctx, "q", driver.ConsumeSpec{}, c.deliver)
	waitFor(t, "delivery", func() bool { return c.count() == 1 })
	_ = c.at(0).Nack(false)
	if body, ok := pullBody(t, tr, "q.dlq"); !ok || body != "poison" {
		t.Fatalf("dead letter: %q %v", body, ok)
	}
}

func TestMemoryQueueTTLDeadLettersBackToTheSourceQueue(t *testing.T) {
	ctx := context.Background()
	tr := dialTest(t, "")
	boundQueue(t, tr, "retry", "direct", "q", "q")
	mustDeclareQueue(t, tr, "q.retry.5ms", map[string]any{
		"x-message-ttl": int64(5), "x-dead-letter-exchange": "retry", "x-dead-letter-routing-key": "q"})
	mustPublish(t, tr, "", "q.retry.5ms", "later")
	var c collector
	_, _ = tr.Consume(ctx, "q", driver.ConsumeSpec{}, c.deliver)
	waitFor(t, "the expired message in the source queue", func() bool { return c.count() == 1 })
	if d := c.at(0); string(d.Body) != "later" || d.RoutingKey != "q" || d.Exchange != "retry" {
		t.Fatalf("got %+v", d)
	}
}

func TestMemoryCancelAndCloseReturnUnsettledMessages(t *testing.T) {
	ctx := context.Background()
	tr := dialTest(t, "")
	mustDeclareQueue(t, tr, "q", nil)
	for _, b := range []string{"1", "2", "3"} {
		mustPublish(t, tr, "", "q", b)
	}
	var c collector
	sub, _ := tr.Consume(ctx, "q", driver.ConsumeSpec{Prefetch: 2}, c.deliver)
	waitFor(t, "two deliveries", func() bool { return c.count() == 2 })
	_ = sub.Cancel()
	_ = c.at(0).Ack()
	if n, _ := tr.(driver.QueueInspector).MessageCount(ctx, "q"); n != 1 {
		t.Fatalf("after cancel and one ack %d ready, want 1 (nothing more delivered)", n)
	}
	_ = sub.Close()
	if body, _ := pullBody(t, tr, "q"); body != "2" {
		t.Fatalf("the unsettled message returns to the head, got %q", body)
	}
}

func TestMemoryAutoDeleteQueueGoesWithItsLastConsumer(t *testing.T) {
	ctx := context.Background()
	tr := dialTest(t, "")
	if err := tr.DeclareQueue(ctx, "replies", driver.QueueSpec{AutoDelete: true, Exclusive: true}); err != nil {
		t.Fatal(err)
	}
	sub, err := tr.Consume(ctx, "replies", driver.ConsumeSpec{}, func(driver.Delivery) {})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.(driver.QueueInspector).MessageCount(ctx, "replies"); err != nil {
		t.Fatalf("the queue is gone too early: %v", err)
	}
	_ = sub.Close()
	if _, err := tr.(driver.QueueInspector).MessageCount(ctx, "replies"); err == nil || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Fatalf("the auto-delete queue outlived its consumer: %v", err)
	}
}

func TestMemoryPerMessageExpirationDeadLetters(t *testing.T) {
	ctx := context.Background()
	tr := dialTest(t, "")
	boundQueue(t, tr, "dlx", "fanout", "dead", "")
	mustDeclareQueue(t, tr, "q", map[string]any{"x-dead-letter-exchange": "dlx"})
	if _, err := tr.Publish(ctx, "", "q", driver.Outbound{Body: []byte("short-lived"), Expiration: "1"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the expired message", func() bool {
		n, _ := tr.(driver.QueueInspector).MessageCount(ctx, "dead")
		return n == 1
	})
	if n, _ := tr.(driver.QueueInspector).MessageCount(ctx, "q"); n != 0 {
		t.Fatalf("the source still holds %d", n)
	}
}

// memURLs holds each test's memory URL, so that -count=N runs never share a broker.
var memURLs sync.Map

// memURL returns the memory:// URL of the test's own broker.
func memURL(t *testing.T) string {
	u, _ := memURLs.LoadOrStore(t, "memory://"+t.Name()+"-"+NewUUID())
	return u.(string)
}

func TestMemoryConsumesAStreamFromItsOffsetWithAPrefetch(t *testing.T) {
	tr := dialTest(t, "")
	mustDeclareQueue(t, tr, "events", map[string]any{"x-queue-type": "stream"})
	_, err := tr.Consume(context.Background(), "events", driver.ConsumeSpec{}, func(driver.Delivery) {})
	if err == nil || !strings.Contains(err.Error(), "prefetch count is not set") {
		t.Fatalf("a stream consumer without a prefetch: %v, want RabbitMQ's refusal", err)
	}
	if _, err := tr.Publish(context.Background(), "", "events", driver.Outbound{Body: []byte("e0")}); err != nil {
		t.Fatal(err)
	}
	got := make(chan driver.Delivery, 1)
	sub, err := tr.Consume(context.Background(), "events", driver.ConsumeSpec{Prefetch: 1, Args: map[string]any{"x-stream-offset": "first"}},
		func(d driver.Delivery) { got <- d })
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if d := <-got; string(d.Body) != "e0" || d.Headers["x-stream-offset"] != int64(0) {
		t.Fatalf("got %q with headers %v, want e0 at x-stream-offset 0", d.Body, d.Headers)
	}
}
