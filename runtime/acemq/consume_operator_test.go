package acemq_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
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
		c, err := acemqimpl.DeclareAndConsume(context.Background(), conn, topo, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
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
		acemqtest.ExpectRunning(t, c)
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
		acemqtest.ExpectRunning(t, c)
	})
}

// TestConsumerInterruptedByAQueueDeletionClosesAtOnce: Close while the
// consumer waits for its queue to come back stops the wait: Close returns,
// Done closes, and the queue declared afterwards gets no subscription.
func TestConsumerInterruptedByAQueueDeletionClosesAtOnce(t *testing.T) {
	conn, admin := connect(t), connect(t)
	declare(t, admin, "commands", acemq.Transient())
	c := consume(t, conn, "commands", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() })
	if err := admin.DeleteQueue(context.Background(), "commands"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the consumer reported interrupted", func() bool { return c.Interrupted() != nil })
	start := time.Now()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	case <-time.After(time.Second):
		t.Fatal("Done did not close")
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Close took %v", d)
	}
	declare(t, admin, "commands", acemq.Transient())
	send(t, admin, "commands", Order{ID: "after"})
	time.Sleep(300 * time.Millisecond)
	if n := count(t, admin, "commands"); n != 1 {
		t.Fatalf("%d messages left in the queue, want 1: a closed consumer subscribed again", n)
	}
	if h := conn.Health(context.Background()); h.Status != acemq.HealthUp {
		t.Fatalf("Health after Close = %s %q, want up", h.Status, h.Detail)
	}
}

func sendTo(t *testing.T, conn *acemq.Conn, exchange, key, id string) {
	t.Helper()
	if err := acemq.NewPublisher[Order](conn, exchange, key).Send(context.Background(), Order{ID: id}); err != nil {
		t.Fatal(err)
	}
}

func expectHandled(t *testing.T, got <-chan string, id string) {
	t.Helper()
	acemq.ExpectFrom(t, got, id, "message ")
}

// TestSetAsideToDeletedDLQIsNotDropped: a message rejected while its
// {queue}.dlq has been deleted (docs/cluster.md has operators delete one to
// change its type) is no longer nacked to acemq.dlx, which routes it
// nowhere, while its settlement says dead_lettered: the consumer declares
// the set-aside queue again and sets the message aside there with its
// reason. When the set-aside queue cannot be had, the message is kept on its
// queue, its settlement saying kept, redelivered after a back-off instead of
// spinning.
func TestSetAsideToDeletedDLQIsNotDropped(t *testing.T) {
	t.Run("declared again", func(t *testing.T) {
		conn, admin := connect(t), connect(t)
		topo := acemq.NewTopology().Queue("orders", acemq.Transient()).DeadLetters("orders")
		settled := make(chan acemq.Settlement, 10)
		c, err := acemqimpl.DeclareAndConsume(context.Background(), conn, topo, "orders", func(ctx context.Context, m acemq.Message[Order]) acemq.Ack {
			acemq.OnSettled(ctx, func(s acemq.Settlement) { settled <- s })
			return acemq.Reject(errors.New("bad order"))
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		if err := admin.DeleteQueue(context.Background(), "orders.dlq"); err != nil {
			t.Fatal(err)
		}
		send(t, admin, "orders", Order{ID: "o-1"})
		if s := <-settled; s.Action != acemq.ActionDeadLettered {
			t.Fatalf("settled %+v, want dead_lettered", s)
		}
		d := awaitMessage(t, admin, "orders.dlq")
		if reason := reasonOn(d); !strings.Contains(reason, "bad order") {
			t.Fatalf("set aside with reason %q, want the engine's", reason)
		}
	})
	t.Run("kept", func(t *testing.T) {
		conn, base := droppingConn(t, ".dlq")
		declare(t, conn, "orders")
		settled := make(chan acemq.Settlement, 100)
		c := consume(t, conn, "orders", func(ctx context.Context, m acemq.Message[Order]) acemq.Ack {
			acemq.OnSettled(ctx, func(s acemq.Settlement) { settled <- s })
			return acemq.Reject(errors.New("bad order"))
		})
		send(t, conn, "orders", Order{ID: "o-1"})
		s := <-settled
		if s.Action != acemq.ActionKept || s.Outcome != semconv.OutcomeKept || !strings.Contains(s.Reason, "bad order") {
			t.Fatalf("settled %+v, want kept with the reason", s)
		}
		time.Sleep(time.Second)
		if n := len(settled); n > 4 {
			t.Fatalf("handled %d more times within a second: the kept message spins", n)
		}
		if n := count(t, base, "orders.dlq"); n != 0 {
			t.Fatalf("%d messages in orders.dlq, want none (the dropping transport)", n)
		}
		_ = c.Close()
		if n := count(t, base, "orders"); n != 1 {
			t.Fatalf("%d messages in orders after the consumer stopped, want the kept one", n)
		}
	})
}
