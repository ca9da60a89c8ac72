package rabbitmq

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
	"github.com/acemq/acemq-gen/runtime/internal/testpoll"
)

// opOrder is the payload of the operator-action tests.
type opOrder struct {
	ID string `json:"id"`
}

// operatorDelete deletes queue from a connection of its own, as an operator
// (rabbitmqctl delete_queue, the management UI) would.
func operatorDelete(t *testing.T, queue string) {
	t.Helper()
	withRawChannel(t, func(ch *amqp.Channel) error {
		_, err := ch.QueueDelete(queue, false, false, false)
		return err
	})
}

// rawChannel opens a channel on conn, a connection of amqp091-go's own.
func rawChannel(t testing.TB, conn *amqp.Connection) *amqp.Channel {
	t.Helper()
	ch, err := conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func withRawChannel(t *testing.T, f func(ch *amqp.Channel) error) {
	t.Helper()
	conn, err := amqp.Dial(brokerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ch := rawChannel(t, conn)
	if err := f(ch); err != nil {
		t.Fatal(err)
	}
}

func consumeOrders(t *testing.T, conn *acemq.Conn, topo *acemq.Topology, queue string) (*acemq.Consumer, chan string) {
	t.Helper()
	got := make(chan string, 10)
	c, err := acemqimpl.DeclareAndConsume(ctxT(t), conn, topo, queue, func(_ context.Context, m acemq.Message[opOrder]) acemq.Ack {
		got <- m.Payload.ID
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c, got
}

func publishOrder(t *testing.T, conn *acemq.Conn, exchange, key, id string) {
	t.Helper()
	if err := acemq.NewPublisher[opOrder](conn, exchange, key).Send(ctxT(t), opOrder{ID: id}); err != nil {
		t.Fatal(err)
	}
}

// consumesAgain declares q again with admin and expects c, which reported
// itself interrupted, to consume again: a message published to q reaches got.
func consumesAgain(t *testing.T, admin *acemq.Conn, c *acemq.Consumer, got <-chan string, q string) {
	t.Helper()
	if err := admin.DeclareQueue(ctxT(t), q, acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the consumer consuming again", func() bool { return c.Interrupted() == nil })
	publishOrder(t, admin, "", q, "after")
	expectOrder(t, got, "after")
}

func expectOrder(t *testing.T, got <-chan string, id string) {
	t.Helper()
	select {
	case g := <-got:
		if g != id {
			t.Fatalf("handled %q, want %q", g, id)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("message %q was never handled", id)
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testpoll.Until(t, 10*time.Second, 10*time.Millisecond, what, cond)
}

// TestConsumerSurvivesQueueDeletion: on RabbitMQ, a consumer whose queue is
// deleted from another connection (basic.cancel) declares the queue it owns
// again, with its binding, and consumes again; for a queue it does not own
// it reports Health degraded until the queue is back, then consumes again.
func TestConsumerSurvivesQueueDeletion(t *testing.T) {
	t.Run("owned", func(t *testing.T) {
		clean := newCleaner(t)
		conn := adminConn(t)
		x, q := clean.exchange(unique("op-x")), clean.queue(unique("op-owned"))
		clean.queue(q + ".dlq")
		clean.queue(q + ".parked")
		topo := acemq.NewTopology().Exchange(x, "topic", acemq.TransientExchange()).
			Queue(q, acemq.Transient()).Binding(q, x, "order.#")
		c, got := consumeOrders(t, conn, topo, q)
		publishOrder(t, conn, x, "order.placed", "before")
		expectOrder(t, got, "before")
		operatorDelete(t, q)
		eventually(t, "the queue declared again", func() bool {
			ok, _ := conn.QueueExists(ctxT(t), q)
			return ok && c.Interrupted() == nil
		})
		publishOrder(t, conn, x, "order.placed", "after")
		expectOrder(t, got, "after")
		acemqtest.ExpectRunning(t, c)
	})
	t.Run("not owned", func(t *testing.T) {
		clean := newCleaner(t)
		conn, admin := adminConn(t), adminConn(t)
		q := clean.queue(unique("op-foreign"))
		clean.queue(q + ".dlq")
		clean.queue(q + ".parked")
		if err := admin.DeclareQueue(ctxT(t), q, acemq.Transient()); err != nil {
			t.Fatal(err)
		}
		c, got := consumeOrders(t, conn, nil, q)
		operatorDelete(t, q)
		eventually(t, "the consumer reported interrupted", func() bool { return c.Interrupted() != nil })
		h := conn.Health(ctxT(t))
		if queues, _ := h.Parts["interrupted"].([]string); h.Status != acemq.HealthDegraded || !slices.Contains(queues, q) {
			t.Fatalf("Health = %s %q %v, want degraded naming the queue", h.Status, h.Detail, h.Parts)
		}
		consumesAgain(t, admin, c, got, q)
		if h := conn.Health(ctxT(t)); h.Status != acemq.HealthUp {
			t.Fatalf("Health after the queue is back = %s %q, want up", h.Status, h.Detail)
		}
		acemqtest.ExpectRunning(t, c)
	})
}

// TestSetAsideToDeletedDLQIsNotDropped: on RabbitMQ, a message rejected
// after an operator deleted {queue}.dlq is set aside there, the consumer
// having declared it again, with the engine's reason; it is not nacked to
// acemq.dlx, which would route it nowhere.
func TestSetAsideToDeletedDLQIsNotDropped(t *testing.T) {
	clean := newCleaner(t)
	conn := adminConn(t)
	q := clean.queue(unique("op-setaside"))
	clean.queue(q + ".dlq")
	clean.queue(q + ".parked")
	topo := acemq.NewTopology().Queue(q, acemq.Transient()).DeadLetters(q)
	settled := make(chan acemq.Settlement, 10)
	c, err := acemqimpl.DeclareAndConsume(ctxT(t), conn, topo, q, func(ctx context.Context, m acemq.Message[opOrder]) acemq.Ack {
		acemq.OnSettled(ctx, func(s acemq.Settlement) { settled <- s })
		return acemq.Reject(errors.New("bad order"))
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	operatorDelete(t, q+".dlq")
	publishOrder(t, conn, "", q, "o-1")
	select {
	case s := <-settled:
		if s.Action != acemq.ActionDeadLettered {
			t.Fatalf("settled %+v, want dead_lettered", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("never settled")
	}
	var d driver.Delivery
	eventually(t, "the message in "+q+".dlq", func() bool {
		got, ok, err := conn.Pull(ctxT(t), q+".dlq")
		d = got
		return ok && err == nil
	})
	if reason, _ := d.Headers[semconv.HeaderError].(string); !strings.Contains(reason, "bad order") {
		t.Fatalf("set aside with reason %q, want the engine's", reason)
	}
}

// TestDeclareTopologyRestoresSubscriberBindings: on RabbitMQ, after the
// topic exchange is deleted from another connection and the domain's
// topology is applied again, the running subscriber's queue is bound again:
// an event published afterwards reaches it.
func TestDeclareTopologyRestoresSubscriberBindings(t *testing.T) {
	clean := newCleaner(t)
	conn := adminConn(t)
	x, q := clean.exchange(unique("op-rebind-x")), clean.queue(unique("op-rebind"))
	clean.queue(q + ".dlq")
	clean.queue(q + ".parked")
	domain := func() *acemq.Topology { return acemq.NewTopology().Exchange(x, "topic", acemq.TransientExchange()) }
	c, got := consumeOrders(t, conn, domain().Queue(q, acemq.Transient()).Binding(q, x, "order.placed"), q)
	publishOrder(t, conn, x, "order.placed", "before")
	expectOrder(t, got, "before")
	withRawChannel(t, func(ch *amqp.Channel) error { return ch.ExchangeDelete(x, false, false) })
	if err := domain().Apply(ctxT(t), conn); err != nil {
		t.Fatal(err)
	}
	res, err := acemq.NewPublisher[opOrder](conn, x, "order.placed", acemq.Mandatory[opOrder]()).SendResult(ctxT(t), opOrder{ID: "after"})
	if err != nil || !res.Routed {
		t.Fatalf("publish after DeclareTopology: %+v %v", res, err)
	}
	expectOrder(t, got, "after")
	acemqtest.ExpectRunning(t, c)
}

// TestConsumerSurvivesQueueDeletionWhileDisconnected: a queue the consumer
// does not own, deleted while its connection was down, no longer leaves the
// resumed subscription dead after recovery (its basic.consume refused, 404):
// the consumer reports itself interrupted, and consumes again once the
// owner declares the queue again.
func TestConsumerSurvivesQueueDeletionWhileDisconnected(t *testing.T) {
	clean := newCleaner(t)
	ev := newEvents()
	tr := openTransport(t, OnRecovery(ev.record))
	conn, err := acemq.NewConn(tr)
	if err != nil {
		t.Fatal(err)
	}
	admin := adminConn(t)
	q := clean.queue(unique("op-offline"))
	clean.queue(q + ".dlq")
	clean.queue(q + ".parked")
	if err := admin.DeclareQueue(ctxT(t), q, acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	c, got := consumeOrders(t, conn, nil, q)
	good := brokerURL(t)
	tr.cutOff()
	ev.waitFor(t, RecoveryLost)
	operatorDelete(t, q)
	tr.setURL(good)
	ev.waitFor(t, RecoveryRecovered)
	eventually(t, "the consumer reported interrupted", func() bool { return c.Interrupted() != nil })
	consumesAgain(t, admin, c, got, q)
}
