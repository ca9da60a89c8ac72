package main

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/examples/bookstore/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// The generated code of examples/bookstore on memory://: a command or an RPC
// request addressed to an owner that has not declared its queue yet fails,
// and the event queue helper names queues exactly as the consumer does.

// connectWithExchangeOnly connects to a fresh memory:// broker on which the
// orders exchange exists but no queue is bound to it: the owner of the
// commands has not declared its topology yet.
func connectWithExchangeOnly(t *testing.T) (context.Context, *acemq.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	conn, err := acemq.Connect(ctx, "memory://bookstore-"+acemq.NewUUID())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	if err := acemq.NewTopology().Exchange(orders.Exchange, "topic").Apply(ctx, conn); err != nil {
		t.Fatal(err)
	}
	return ctx, conn
}

// wantUnroutable fails unless err is the unroutable failure of one message
// to the orders exchange with key, naming both.
func wantUnroutable(t *testing.T, err error, key string) *acemq.PublishFailedError {
	t.Helper()
	var pf *acemq.PublishFailedError
	if !errors.Is(err, acemq.ErrUnroutable) || !errors.As(err, &pf) {
		t.Fatalf("err = %v, want one matching acemq.ErrUnroutable", err)
	}
	if pf.Exchange != orders.Exchange || pf.RoutingKey != key {
		t.Errorf("the failure names exchange %q key %q, want %q and %q", pf.Exchange, pf.RoutingKey, orders.Exchange, key)
	}
	for _, name := range []string{strconv.Quote(orders.Exchange), strconv.Quote(key)} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("the error %q does not name %s", err, name)
		}
	}
	return pf
}

func TestCommandSentToNobodyFailsUnroutable(t *testing.T) {
	ctx, conn := connectWithExchangeOnly(t)
	shop := orders.NewPublisher(conn)
	err := shop.SendCancelOrder(ctx, orders.CancelOrder{OrderID: shippedOrder, Reason: "nobody listens"})
	wantUnroutable(t, err, orders.CancelOrderRoutingKey)

	c, err := orders.ConsumeCancelOrder(ctx, conn, func(context.Context, acemq.Message[orders.CancelOrder]) acemq.Ack { return acemq.Accept() })
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := shop.SendCancelOrder(ctx, orders.CancelOrder{OrderID: shippedOrder, Reason: "now someone does"}); err != nil {
		t.Fatalf("once the owner's queue is declared: %v", err)
	}
}

func TestCommandBatchSentToNobodyFailsEachMessageUnroutable(t *testing.T) {
	ctx, conn := connectWithExchangeOnly(t)
	batch := []orders.CancelOrder{{OrderID: "a", Reason: "1"}, {OrderID: "b", Reason: "2"}, {OrderID: "c", Reason: "3"}}
	results, err := orders.NewPublisher(conn).SendCancelOrderBatch(ctx, batch)
	var be *acemq.BatchPublishFailedError
	if !errors.As(err, &be) || be.Total != len(batch) || be.Failed != len(batch) || len(be.Errors) != len(batch) {
		t.Fatalf("err = %#v, want every one of %d messages failed", err, len(batch))
	}
	for i, e := range be.Errors {
		pf := wantUnroutable(t, e, orders.CancelOrderRoutingKey)
		if pf.MessageID != results[i].MessageID || results[i].Routed {
			t.Errorf("message %d: the failure names %s, the result %+v", i, pf.MessageID, results[i])
		}
	}
}

func TestRPCToAQueueNobodyDeclaredFailsUnroutableAtOnce(t *testing.T) {
	ctx, conn := connectWithExchangeOnly(t)
	client := orders.NewClient(conn)
	defer client.Close()
	// The contract's timeout is 5s and ctx's deadline is 20s: a call that
	// waited would end with a timeout, not with ErrUnroutable.
	_, err := client.GetOrderStatus(ctx, orders.GetOrderStatusRequest{OrderID: shippedOrder})
	var pf *acemq.PublishFailedError
	if !errors.Is(err, acemq.ErrUnroutable) || errors.Is(err, patterns.ErrRequestTimedOut) || !errors.As(err, &pf) {
		t.Fatalf("err = %v, want ErrUnroutable at once, not a timeout", err)
	}
	if pf.RoutingKey != orders.GetOrderStatusQueue || !strings.Contains(err.Error(), strconv.Quote(orders.GetOrderStatusQueue)) {
		t.Errorf("the error %q does not name the queue %q", err, orders.GetOrderStatusQueue)
	}
}

func TestEventQueueHelperAgreesWithConsume(t *testing.T) {
	ctx, conn := connectWithExchangeOnly(t)
	h := func(context.Context, acemq.Message[orders.OrderPlaced]) acemq.Ack { return acemq.Accept() }
	for _, bad := range []string{"", "  ", "two words", "amq.billing"} {
		_, qerr := orders.OrderPlacedQueue(bad)
		_, cerr := orders.ConsumeOrderPlaced(ctx, conn, bad, h)
		if qerr == nil || cerr == nil || qerr.Error() != cerr.Error() {
			t.Errorf("service %q: OrderPlacedQueue says %v, ConsumeOrderPlaced says %v; want the same error", bad, qerr, cerr)
		}
	}
	queue, err := orders.OrderPlacedQueue("billing")
	if err != nil || queue != "billing.order.placed" {
		t.Fatalf("OrderPlacedQueue(billing) = %q, %v", queue, err)
	}
	c, err := orders.ConsumeOrderPlaced(ctx, conn, "billing", h)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if ok, err := conn.QueueExists(ctx, queue); err != nil || !ok {
		t.Fatalf("ConsumeOrderPlaced(billing) did not declare %q: %v, %v", queue, ok, err)
	}
}
