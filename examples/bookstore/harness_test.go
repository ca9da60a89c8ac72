package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/examples/bookstore/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// declareOrders declares the orders domain on h's connection.
func declareOrders(t *testing.T, h *acemqtest.Harness) {
	t.Helper()
	if err := orders.DeclareTopology(t.Context(), h.Conn()); err != nil {
		t.Fatal(err)
	}
}

// cancelWith declares the orders domain, consumes cancellations with
// handler under policy (passed as a ConsumeOption, over the contract's) and
// sends one.
func cancelWith(t *testing.T, h *acemqtest.Harness, policy acemq.RetryPolicy, handler acemq.Handler[orders.CancelOrder]) {
	t.Helper()
	declareOrders(t, h)
	if _, err := orders.ConsumeCancelOrder(t.Context(), h.Conn(), handler, acemq.RetryWith(policy)); err != nil {
		t.Fatal(err)
	}
	if err := orders.NewPublisher(h.Conn()).SendCancelOrder(t.Context(), cancel); err != nil {
		t.Fatal(err)
	}
}

// cancel is the command the retry scenarios send.
var cancel = orders.CancelOrder{OrderID: shippedOrder, Reason: "changed my mind"}

// TestHarnessHandlerFailsTwiceThenSucceeds: a cancellation whose handler
// fails twice is tried again after the policy's 30 s waits and accepted on
// the third attempt, at +0, +30 s and +60 s of virtual time.
func TestHarnessHandlerFailsTwiceThenSucceeds(t *testing.T) {
	acemqtest.Run(t, func(t *testing.T, h *acemqtest.Harness) {
		failures := 2
		cancelWith(t, h, acemq.FixedRetry(3, h.D(30*time.Second)), func(context.Context, acemq.Message[orders.CancelOrder]) acemq.Ack {
			if failures > 0 {
				failures--
				return acemq.Retry(errors.New("the warehouse is not answering"))
			}
			return acemq.Accept()
		})
		h.Settle()
		h.ExpectSettlements(orders.CancelOrderQueue,
			acemqtest.Settled{Attempt: 1, At: 0, Action: acemq.ActionRetried},
			acemqtest.Settled{Attempt: 2, At: 30 * time.Second, Action: acemq.ActionRetried},
			acemqtest.Settled{Attempt: 3, At: 60 * time.Second, Action: acemq.ActionAccepted})
		sent := acemqtest.ExpectPublished[orders.CancelOrder](t, h.Recorder(), orders.CancelOrderRoutingKey, 1)[0]
		if sent.Payload != cancel {
			t.Errorf("sent %+v, want %+v", sent.Payload, cancel)
		}
	})
}

// TestHarnessExponentialLadderEndsInTheDeadLetterQueue: a cancellation that
// always fails climbs an exponential ladder of 1 h, 2 h and 4 h and, after
// its fourth attempt at +7 h, lands in orders.cancel-order.dlq with the
// family's reason.
func TestHarnessExponentialLadderEndsInTheDeadLetterQueue(t *testing.T) {
	acemqtest.Run(t, func(t *testing.T, h *acemqtest.Harness) {
		ladder := acemq.ExponentialRetry(4, h.D(time.Hour), 0).WithJitter(0)
		cancelWith(t, h, ladder, func(context.Context, acemq.Message[orders.CancelOrder]) acemq.Ack {
			return acemq.Retry(errors.New("the warehouse is closed"))
		})
		h.Settle()
		h.ExpectSettlements(orders.CancelOrderQueue,
			acemqtest.Settled{Attempt: 1, At: 0, Action: acemq.ActionRetried},
			acemqtest.Settled{Attempt: 2, At: time.Hour, Action: acemq.ActionRetried},
			acemqtest.Settled{Attempt: 3, At: 3 * time.Hour, Action: acemq.ActionRetried},
			acemqtest.Settled{Attempt: 4, At: 7 * time.Hour, Action: acemq.ActionDeadLettered, Reason: "the warehouse is closed"})
		h.ExpectDeadLettered(orders.CancelOrderQueue, "exhausted 4 attempts: the warehouse is closed")
	})
}

// TestHarnessRPCTimesOut: the till asks for a shipped order's status
// (answered at once), then for an order stuck in the warehouse, whose
// answer takes an hour: the caller gives up after a minute with a timeout,
// and the late reply is still sent, at +1 h.
func TestHarnessRPCTimesOut(t *testing.T) {
	acemqtest.Run(t, func(t *testing.T, h *acemqtest.Harness) {
		declareOrders(t, h)
		srv, err := orders.ServeGetOrderStatus(t.Context(), h.Conn(), func(_ context.Context, m acemq.Message[orders.GetOrderStatusRequest]) (orders.GetOrderStatusResponse, error) {
			if m.Payload.OrderID != shippedOrder {
				time.Sleep(h.D(time.Hour))
			}
			return orders.GetOrderStatusResponse{OrderID: m.Payload.OrderID, Status: orders.OrderStatusShipped}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		client := orders.NewClient(h.Conn())
		defer client.Close()
		if _, err := client.GetOrderStatus(t.Context(), orders.GetOrderStatusRequest{OrderID: shippedOrder}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), h.D(time.Minute))
		defer cancel()
		asked := h.Elapsed()
		if _, err := client.GetOrderStatus(ctx, orders.GetOrderStatusRequest{OrderID: stuckOrder}); !errors.Is(err, patterns.ErrRequestTimedOut) {
			t.Fatalf("GetOrderStatus = %v, want a timeout", err)
		}
		if waited := h.Elapsed() - asked; h.Virtual() && waited != 5*time.Second {
			t.Errorf("the call gave up after %s, want the contract's 5s (shorter than the caller's minute)", waited)
		}
		h.Settle()
		h.ExpectSettlements(orders.GetOrderStatusQueue,
			acemqtest.Settled{Attempt: 1, At: asked, Action: acemq.ActionAccepted},
			acemqtest.Settled{Attempt: 1, At: asked, Action: acemq.ActionAccepted})
	})
}

// stuckOrder is an order whose status takes an hour to find.
const stuckOrder = "7d3e9a40-2c1b-4e8f-a5d6-0f9b8c7e6d51"

// TestHarnessRPCReturnsADeclaredError: GetOrderStatus for an unknown order
// fails with the declared error orders.ErrNotFound, and the reply carries
// its code.
func TestHarnessRPCReturnsADeclaredError(t *testing.T) {
	acemqtest.Run(t, func(t *testing.T, h *acemqtest.Harness) {
		declareOrders(t, h)
		srv, err := orders.ServeGetOrderStatus(t.Context(), h.Conn(), func(context.Context, acemq.Message[orders.GetOrderStatusRequest]) (orders.GetOrderStatusResponse, error) {
			return orders.GetOrderStatusResponse{}, orders.ErrNotFound
		})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		client := orders.NewClient(h.Conn())
		defer client.Close()
		if _, err := client.GetOrderStatus(t.Context(), orders.GetOrderStatusRequest{OrderID: "no-such-order"}); !errors.Is(err, orders.ErrNotFound) {
			t.Fatalf("GetOrderStatus = %v, want orders.ErrNotFound", err)
		}
		h.Settle()
		h.ExpectAnswered(orders.GetOrderStatusQueue, orders.ErrNotFound)
	})
}

// TestHarnessScheduledCancellationDeliveredWhenDue: a cancellation sent 24 h
// ahead waits on the schedule ladder and reaches the orders service exactly
// when due, at +24 h of virtual time, not a moment before.
func TestHarnessScheduledCancellationDeliveredWhenDue(t *testing.T) {
	acemqtest.Run(t, func(t *testing.T, h *acemqtest.Harness) {
		declareOrders(t, h)
		scheduler, err := patterns.NewScheduler(t.Context(), h.Conn())
		if err != nil {
			t.Fatal(err)
		}
		defer scheduler.Close()
		_, err = orders.ConsumeCancelOrder(t.Context(), h.Conn(), func(context.Context, acemq.Message[orders.CancelOrder]) acemq.Ack {
			return acemq.Accept()
		})
		if err != nil {
			t.Fatal(err)
		}
		sent, err := orders.NewPublisher(h.Conn()).SendCancelOrderAfter(t.Context(), h.D(24*time.Hour), cancel)
		if err != nil {
			t.Fatal(err)
		}
		h.ExpectScheduled(orders.CancelOrderRoutingKey, 24*time.Hour)
		h.Advance(23 * time.Hour)
		h.ExpectSettlements(orders.CancelOrderQueue) // nothing yet
		h.Settle()
		h.ExpectDelivered(orders.CancelOrderQueue, 24*time.Hour)
		h.ExpectSettlements(orders.CancelOrderQueue, acemqtest.Settled{Attempt: 1, At: 24 * time.Hour, Action: acemq.ActionAccepted})
		if h.Virtual() && !h.Now().Equal(sent.DueAt()) {
			t.Errorf("delivered at %s, want exactly when due, %s", h.Now(), sent.DueAt())
		}
	})
}
