package acemq_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

func TestConsumeRefusesANilHandler(t *testing.T) {
	conn := connect(t)
	_, err := acemq.Consume[Order](context.Background(), conn, "orders", nil)
	if err == nil || err.Error() != `acemq: Consume on "orders" was given a nil handler` {
		t.Fatalf("got %v", err)
	}
}

func TestConsumeRefusesConcurrencyBelowOne(t *testing.T) {
	conn := ordersConn(t)
	_, err := acemq.Consume(context.Background(), conn, "orders",
		func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() }, acemq.Concurrency(0))
	if err == nil || err.Error() != "acemq: Concurrency must be at least 1, got 0" {
		t.Fatalf("got %v", err)
	}
}

func TestConsumeOfAnUndeclaredQueueFails(t *testing.T) {
	conn := connect(t)
	_, err := acemq.Consume(context.Background(), conn, "ghost",
		func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() })
	if err == nil || !strings.HasPrefix(err.Error(), `acemq: cannot consume from "ghost": `) || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Fatalf("got %v", err)
	}
}

func TestConsumeDeclaresItsDeadLetterHalfButNeverItsQueue(t *testing.T) {
	conn := connect(t)
	declare(t, conn, "orders", acemq.QueueArg("x-max-length", 10))
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() })
	for _, q := range []string{"orders.dlq", "orders.parked"} {
		if count(t, conn, q) != 0 {
			t.Errorf("%s is not empty", q)
		}
	}
}

func TestDeclareAndConsumeAppliesTheTopologyFirst(t *testing.T) {
	conn := connect(t)
	topo := acemq.NewTopology().Exchange("shop", "topic").Queue("billing").Binding("billing", "shop", "order.*")
	got := make(chan Order, 1)
	_, err := acemqimpl.DeclareAndConsume(context.Background(), conn, topo, "billing", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		got <- m.Payload
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := acemq.NewPublisher[Order](conn, "shop", "order.placed").Send(context.Background(), Order{ID: "t"}); err != nil {
		t.Fatal(err)
	}
	if o := <-got; o.ID != "t" {
		t.Fatalf("got %+v", o)
	}
}

func TestCloseWaitsForTheRunningHandlerAndRequeuesTheUnstarted(t *testing.T) {
	conn := ordersConn(t)
	for range 5 {
		send(t, conn, "orders", Order{})
	}
	started, release := make(chan struct{}, 5), make(chan struct{})
	var finished atomic.Int32
	c, _ := acemq.Consume(context.Background(), conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		started <- struct{}{}
		<-release
		finished.Add(1)
		return acemq.Accept()
	}, acemq.Prefetch(5))
	<-started
	closed := make(chan error, 1)
	go func() { closed <- c.Close() }()
	waitFor(t, "close to requeue the unstarted", func() bool { return count(t, conn, "orders") == 4 })
	close(release)
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if finished.Load() != 1 || count(t, conn, "orders") != 4 {
		t.Fatalf("finished %d, queued %d", finished.Load(), count(t, conn, "orders"))
	}
	if err := c.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}

func TestCloseAtTheDrainTimeoutCancelsHandlersAndReportsThem(t *testing.T) {
	conn := ordersConn(t)
	started := make(chan struct{}, 1)
	c, _ := acemq.Consume(context.Background(), conn, "orders", func(ctx context.Context, _ acemq.Message[Order]) acemq.Ack {
		started <- struct{}{}
		<-ctx.Done()
		return acemq.Reject(ctx.Err())
	}, acemq.DrainTimeout(5*time.Millisecond))
	send(t, conn, "orders", Order{})
	<-started
	err := c.Close()
	var dt *acemq.DrainTimeoutError
	if !errors.Is(err, acemq.ErrDrainTimeout) || !errors.As(err, &dt) || dt.Stranded != 1 || dt.Queue != "orders" {
		t.Fatalf("got %v", err)
	}
	if got := reasonOn(awaitMessage(t, conn, "orders.dlq")); got != "the handler rejected it: context canceled" {
		t.Fatalf("the handler's answer at the bound still settles once: %q", got)
	}
	if count(t, conn, "orders") != 0 {
		t.Fatal("the message was also returned to the queue")
	}
}

func TestCancellingTheContextStopsTheConsumer(t *testing.T) {
	conn := ordersConn(t)
	ctx, cancel := context.WithCancel(context.Background())
	var handled atomic.Int32
	c, err := acemq.Consume(ctx, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		handled.Add(1)
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-c.Done()
	send(t, conn, "orders", Order{})
	if count(t, conn, "orders") != 1 || handled.Load() != 0 {
		t.Fatal("a stopped consumer took a message")
	}
}

// consumeHeld starts a consumer of orders whose handler counts itself in
// running and then holds the message until release is closed.
func consumeHeld(t *testing.T, conn *acemq.Conn, opts ...acemq.ConsumeOption) (running *atomic.Int32, release chan struct{}) {
	t.Helper()
	running, release = new(atomic.Int32), make(chan struct{})
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		running.Add(1)
		<-release
		return acemq.Accept()
	}, opts...)
	return running, release
}

func TestPrefetchBoundsTheMessagesAConsumerHolds(t *testing.T) {
	conn := ordersConn(t)
	for range 5 {
		send(t, conn, "orders", Order{})
	}
	running, release := consumeHeld(t, conn, acemq.Prefetch(2), acemq.Concurrency(4))
	waitFor(t, "two running handlers", func() bool { return running.Load() == 2 })
	if n := count(t, conn, "orders"); n != 3 {
		t.Fatalf("%d still ready, want 3 (prefetch 2)", n)
	}
	close(release)
	waitFor(t, "every message handled", func() bool { return running.Load() == 5 })
}

func TestConcurrencyRunsHandlersInParallel(t *testing.T) {
	conn := ordersConn(t)
	running, release := consumeHeld(t, conn, acemq.Concurrency(3))
	for range 3 {
		send(t, conn, "orders", Order{})
	}
	waitFor(t, "three handlers at once", func() bool { return running.Load() == 3 })
	close(release)
}

func TestConnCloseClosesItsConsumers(t *testing.T) {
	conn, err := acemq.Connect(context.Background(), brokerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	declare(t, conn, "orders")
	c, _ := acemq.Consume(context.Background(), conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() })
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	<-c.Done()
	if err := conn.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	_, err = acemq.Consume(context.Background(), conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() })
	if !errors.Is(err, acemq.ErrClosed) {
		t.Fatalf("consuming on a closed connection: %v", err)
	}
}

// specSpy records the ConsumeSpec each Consume is given.
type specSpy struct {
	driver.Transport
	specs chan driver.ConsumeSpec
}

func (s specSpy) Consume(ctx context.Context, queue string, spec driver.ConsumeSpec, deliver func(driver.Delivery)) (driver.Subscription, error) {
	s.specs <- spec
	return s.Transport.Consume(ctx, queue, spec, deliver)
}

func TestConsumePassesPrefetchTagAndArgumentsToTheTransport(t *testing.T) {
	base := connect(t)
	declare(t, base, "orders")
	spy := specSpy{Transport: base.Transport(), specs: make(chan driver.ConsumeSpec, 2)}
	conn, _ := acemq.NewConn(spy, acemq.WithPrefetch(7))
	h := func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() }
	consume(t, conn, "orders", h)
	if got := <-spy.specs; got.Prefetch != 7 || got.Tag != "" || len(got.Args) != 0 {
		t.Errorf("connection default: %+v", got)
	}
	consume(t, conn, "orders", h, acemq.Prefetch(3), acemq.ConsumerTag("billing-1"), acemq.ConsumeArg("x-priority", 5))
	if got := <-spy.specs; got.Prefetch != 3 || got.Tag != "billing-1" || got.Args["x-priority"] != 5 {
		t.Errorf("options: %+v", got)
	}
}
