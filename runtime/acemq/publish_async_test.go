package acemq_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// asyncGate is an AsyncPublisher over a memory transport that records the
// order of its PublishAsync calls and counts the Waits made before all n
// messages were written, and the Publish calls it should never get.
type asyncGate struct {
	driver.Transport
	n     int
	mu    sync.Mutex
	order []string
	early int
	syncs atomic.Int64
}

func (g *asyncGate) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	g.syncs.Add(1)
	return g.Transport.Publish(ctx, exchange, key, msg)
}

func (g *asyncGate) PublishAsync(ctx context.Context, exchange, key string, msg driver.Outbound) (driver.Confirmation, error) {
	res, err := g.Transport.Publish(ctx, exchange, key, msg)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.order = append(g.order, msg.MessageID)
	return gateConfirmation{g: g, res: res, err: err}, nil
}

type gateConfirmation struct {
	g   *asyncGate
	res acemq.PublishResult
	err error
}

func (c gateConfirmation) Wait(context.Context) (acemq.PublishResult, error) {
	c.g.mu.Lock()
	defer c.g.mu.Unlock()
	if len(c.g.order) < c.g.n {
		c.g.early++
	}
	return c.res, c.err
}

// idRecorder is a publish interceptor noting each payload's message ID.
type idRecorder struct {
	mu   sync.Mutex
	idOf map[int]string // Order.Total -> message ID
}

func (r *idRecorder) intercept(_ context.Context, c *acemq.PublishContext) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.idOf[c.Payload.(Order).Total] = c.Envelope.ID
	return nil
}

// numbered returns n orders whose Totals are 0..n-1.
func numbered(n int) []Order {
	payloads := make([]Order, n)
	for i := range payloads {
		payloads[i] = Order{Total: i}
	}
	return payloads
}

func TestSendAllOnAnAsyncPublisherWritesTheBatchInPayloadOrderBeforeAwaitingAnyConfirm(t *testing.T) {
	base := connect(t)
	declare(t, base, "orders")
	g := &asyncGate{Transport: base.Transport(), n: 40}
	ids := &idRecorder{idOf: map[int]string{}}
	conn, err := acemq.NewConn(g, acemq.WithPublishInterceptor(ids.intercept))
	if err != nil {
		t.Fatal(err)
	}
	results, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), numbered(40))
	if err != nil || len(results) != 40 {
		t.Fatalf("%d results, %v", len(results), err)
	}
	if g.early != 0 || g.syncs.Load() != 0 || len(g.order) != 40 {
		t.Fatalf("%d confirms awaited before the last write, %d Publish calls, %d writes; want 0, 0, 40", g.early, g.syncs.Load(), len(g.order))
	}
	for i, id := range g.order {
		if id != ids.idOf[i] || results[i].MessageID != id {
			t.Fatalf("write %d was message %s, result %s; payload %d is message %s", i, id, results[i].MessageID, i, ids.idOf[i])
		}
	}
}

func TestSendAllOnMemoryDeliversTheBatchInPayloadOrder(t *testing.T) {
	conn := ordersConn(t)
	if _, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), numbered(100)); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		var o Order
		if err := json.Unmarshal(awaitMessage(t, conn, "orders").Body, &o); err != nil || o.Total != i {
			t.Fatalf("message %d on the queue is payload %d (%v)", i, o.Total, err)
		}
	}
}

func TestSendAllGivesEachMandatoryUnroutableMessageInsideABatchItsOwnReturn(t *testing.T) {
	onEachPath(t, sendAllGivesEachMandatoryUnroutableMessageInsideABatchItsOwnReturn)
}

func sendAllGivesEachMandatoryUnroutableMessageInsideABatchItsOwnReturn(t *testing.T, base *acemq.Conn, open func(...acemq.ConnOption) *acemq.Conn) {
	everyThirdAstray := func(_ context.Context, c *acemq.PublishContext) error {
		if c.Payload.(Order).Total%3 == 0 {
			c.RoutingKey = "nowhere"
		}
		return nil
	}
	declare(t, base, "orders")
	pub := acemq.NewPublisher[Order](open(acemq.WithPublishInterceptor(everyThirdAstray)), "", "orders", acemq.Mandatory[Order]())
	results, err := pub.SendAll(context.Background(), numbered(30))
	var be *acemq.BatchPublishFailedError
	if !errors.As(err, &be) || be.Failed != 10 || be.Confirmed != 20 {
		t.Fatalf("got %v", err)
	}
	for i, r := range results {
		if astray := i%3 == 0; r.Routed == astray || astray && r.ReturnReason != "312 NO_ROUTE" {
			t.Errorf("payload %d: %+v", i, r)
		}
	}
	for _, e := range be.Errors {
		var pf *acemq.PublishFailedError
		if !errors.As(e, &pf) || !errors.Is(e, acemq.ErrUnroutable) || pf.RoutingKey != "nowhere" {
			t.Errorf("failure %v, want unroutable to nowhere", e)
		}
	}
	if n := count(t, base, "orders"); n != 20 {
		t.Fatalf("%d on the queue, want 20", n)
	}
}

func TestSendAllIntoAFullRejectPublishQueueFailsOnlyTheRefusedMessages(t *testing.T) {
	onEachPath(t, func(t *testing.T, base *acemq.Conn, open func(...acemq.ConnOption) *acemq.Conn) {
		declare(t, base, "small", acemq.QueueArg("x-max-length", 3), acemq.QueueArg("x-overflow", "reject-publish"))
		conn := open()
		_, inOrder := conn.Transport().(driver.AsyncPublisher)
		results, err := acemq.NewPublisher[Order](conn, "", "small").SendAll(context.Background(), numbered(8))
		var be *acemq.BatchPublishFailedError
		if !errors.As(err, &be) || be.Failed == 0 || be.Confirmed+be.Failed != 8 || count(t, base, "small") != be.Confirmed {
			t.Fatalf("got %v, %d on the queue; want some of 8 refused, the rest queued", err, count(t, base, "small"))
		}
		for _, e := range be.Errors {
			if !errors.Is(e, driver.ErrBrokerRefused) {
				t.Errorf("failure %v, want ErrBrokerRefused", e)
			}
		}
		for i, r := range results {
			if inOrder && r.Confirmed != (i < be.Confirmed) {
				t.Errorf("payload %d confirmed: %v; written in payload order, the first %d fit", i, r.Confirmed, be.Confirmed)
			}
		}
	})
}

func TestSendAllReturnsResultsInPayloadOrderOnBothPaths(t *testing.T) {
	onEachPath(t, func(t *testing.T, base *acemq.Conn, open func(...acemq.ConnOption) *acemq.Conn) {
		ids := &idRecorder{idOf: map[int]string{}}
		declare(t, base, "orders")
		pub := acemq.NewPublisher[Order](open(acemq.WithPublishInterceptor(ids.intercept)), "", "orders")
		results, err := pub.SendAll(context.Background(), numbered(50))
		if err != nil || len(results) != 50 {
			t.Fatalf("%d results, %v", len(results), err)
		}
		for i, r := range results {
			if !r.Confirmed || r.MessageID != ids.idOf[i] {
				t.Fatalf("result %d is %+v, want message %s", i, r, ids.idOf[i])
			}
		}
	})
}

// slotted is an AsyncPublisher over a memory transport with a window of
// slots that never frees: once they are taken, PublishAsync calls full()
// and waits for its ctx, as RabbitMQ's does for MaxOutstandingPublishes.
type slotted struct {
	driver.Transport
	slots int
	taken atomic.Int64
	full  func()
}

func (s *slotted) PublishAsync(ctx context.Context, exchange, key string, msg driver.Outbound) (driver.Confirmation, error) {
	if s.taken.Add(1) > int64(s.slots) {
		s.full()
		<-ctx.Done()
		return nil, fmt.Errorf("all %d slots hold unconfirmed messages: %w", s.slots, ctx.Err())
	}
	res, err := s.Transport.Publish(ctx, exchange, key, msg)
	return driver.ConfirmationOf(res, err), nil
}

func TestSendAllWhoseContextEndsWhileWaitingForAPublishSlotFailsTheRestAndRunsEveryHook(t *testing.T) {
	base := connect(t)
	declare(t, base, "orders")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var hooks atomic.Int64
	countHooks := func(_ context.Context, c *acemq.PublishContext) error {
		c.OnOutcome(func(context.Context, acemq.PublishOutcome) { hooks.Add(1) })
		return nil
	}
	conn, err := acemq.NewConn(&slotted{Transport: base.Transport(), slots: 4, full: cancel}, acemq.WithPublishInterceptor(countHooks))
	if err != nil {
		t.Fatal(err)
	}
	results, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(ctx, numbered(10))
	var be *acemq.BatchPublishFailedError
	if !errors.As(err, &be) || be.Confirmed != 4 || be.Failed != 6 || len(results) != 10 {
		t.Fatalf("got %v, %d results; want 4 confirmed, 6 failed", err, len(results))
	}
	for i, e := range be.Errors {
		var pf *acemq.PublishFailedError
		if !errors.As(e, &pf) || !errors.Is(e, context.Canceled) || results[4+i].Confirmed {
			t.Errorf("failure %d: %v, want a PublishFailedError of the cancelled ctx", i, e)
		}
	}
	if n := count(t, base, "orders"); n != 4 || hooks.Load() != 10 {
		t.Fatalf("%d published, %d outcome hooks run; want 4 and 10", n, hooks.Load())
	}
}

func TestMemoryPublishAsyncSettlesAtOnceAndReportsARefusalThroughTheConfirmation(t *testing.T) {
	conn := connect(t)
	declare(t, conn, "one", acemq.QueueArg("x-max-length", 1), acemq.QueueArg("x-overflow", "reject-publish"))
	ap := conn.Transport().(driver.AsyncPublisher)
	ctx, cancel := context.WithCancel(context.Background())
	first, err := ap.PublishAsync(ctx, "", "one", driver.Outbound{MessageID: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ap.PublishAsync(ctx, "", "one", driver.Outbound{MessageID: "b"}); err != nil {
		t.Fatal(err)
	}
	third, err := ap.PublishAsync(ctx, "", "one", driver.Outbound{MessageID: "c"})
	if err != nil {
		t.Fatal(err)
	}
	cancel() // the outcomes are already known: Wait does not need ctx
	if res, err := first.Wait(ctx); err != nil || !res.Confirmed || res.MessageID != "a" {
		t.Errorf("first = %+v, %v; want confirmed", res, err)
	}
	if _, err := third.Wait(ctx); !errors.Is(err, driver.ErrBrokerRefused) {
		t.Errorf("third = %v, want ErrBrokerRefused (a queue of one is full after at most two)", err)
	}
	_ = conn.Close()
	if c, err := ap.PublishAsync(context.Background(), "", "one", driver.Outbound{MessageID: "c"}); err == nil || c != nil {
		t.Errorf("PublishAsync on a closed connection = %v, %v; want an error and no confirmation", c, err)
	}
}

func TestConfirmationOfReturnsItsOutcome(t *testing.T) {
	refused := errors.New("refused")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := driver.ConfirmationOf(acemq.PublishResult{MessageID: "m", Confirmed: true}, refused).Wait(ctx)
	if res.MessageID != "m" || !res.Confirmed || err != refused {
		t.Fatalf("Wait = %+v, %v", res, err)
	}
}
