package acemq_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// TestConsumerSurvivesQueueDeletion: a consumer whose queue an operator
// deletes (the broker cancels it) no longer stops for good, up and silent:
// it declares the queue it owns again, with its binding, and consumes again,
// so an event published afterwards reaches the handler; and, for a queue it
// does not own, it is reported (Health degraded naming the queue) until the
// owner declares the queue again, then consumes again. Done stays open.
func TestConsumerSurvivesQueueDeletion(t *testing.T) {
	t.Run("owned", func(t *testing.T) {
		conn, admin := connect(t), connect(t)
		topo := acemq.NewTopology().Exchange("shop", "topic").Queue("orders", acemq.Transient()).Binding("orders", "shop", "order.#")
		got := make(chan string, 10)
		c, err := acemq.DeclareAndConsume(context.Background(), conn, topo, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
			got <- m.Payload.ID
			return acemq.Accept()
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		sendTo(t, conn, "shop", "order.placed", "before")
		expectHandled(t, got, "before")
		if err := admin.DeleteQueue(context.Background(), "orders"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the queue declared again", func() bool {
			ok, _ := admin.QueueExists(context.Background(), "orders")
			return ok && c.Interrupted() == nil
		})
		sendTo(t, conn, "shop", "order.placed", "after")
		expectHandled(t, got, "after")
		expectRunning(t, c)
	})
	t.Run("not owned", func(t *testing.T) {
		conn, admin := connect(t), connect(t)
		declare(t, admin, "commands", acemq.Transient())
		got := make(chan string, 10)
		c := consume(t, conn, "commands", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
			got <- m.Payload.ID
			return acemq.Accept()
		})
		if err := admin.DeleteQueue(context.Background(), "commands"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the consumer reported interrupted", func() bool { return c.Interrupted() != nil })
		h := conn.Health(context.Background())
		if h.Status != acemq.HealthDegraded || !slices.Contains(h.Parts["interrupted"].([]string), "commands") {
			t.Fatalf("Health = %s %q %v, want degraded naming the queue", h.Status, h.Detail, h.Parts)
		}
		declare(t, admin, "commands", acemq.Transient())
		waitFor(t, "the consumer consuming again", func() bool { return c.Interrupted() == nil })
		send(t, admin, "commands", Order{ID: "after"})
		expectHandled(t, got, "after")
		if h := conn.Health(context.Background()); h.Status != acemq.HealthUp {
			t.Fatalf("Health after the queue is back = %s %q, want up", h.Status, h.Detail)
		}
		expectRunning(t, c)
	})
}

func sendTo(t *testing.T, conn *acemq.Conn, exchange, key, id string) {
	t.Helper()
	if err := acemq.NewPublisher[Order](conn, exchange, key).Send(context.Background(), Order{ID: id}); err != nil {
		t.Fatal(err)
	}
}

func expectHandled(t *testing.T, got <-chan string, id string) {
	t.Helper()
	select {
	case g := <-got:
		if g != id {
			t.Fatalf("handled %q, want %q", g, id)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("message %q was never handled", id)
	}
}

func expectRunning(t *testing.T, c *acemq.Consumer) {
	t.Helper()
	select {
	case <-c.Done():
		t.Fatal("the consumer stopped")
	default:
	}
}
