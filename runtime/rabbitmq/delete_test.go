package rabbitmq

import (
	"context"
	"slices"
	"strings"
	"testing"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// adminConn connects acemq to the test broker.
func adminConn(t *testing.T) *acemq.Conn {
	t.Helper()
	conn, err := acemq.Connect(ctxT(t), brokerURL(t), testDelay)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func TestQueueExistsOnRabbitMQCreatesNothingAndKeepsTheConnectionUsable(t *testing.T) {
	conn, ctx, clean := adminConn(t), ctxT(t), newCleaner(t)
	q := clean.queue(unique("exists"))
	for range 2 { // a 404 closes only the throwaway channel
		if ok, err := conn.QueueExists(ctx, q); err != nil || ok {
			t.Fatalf("before declare: exists=%v err=%v", ok, err)
		}
	}
	if err := conn.DeclareQueue(ctx, q, acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	if ok, err := conn.QueueExists(ctx, q); err != nil || !ok {
		t.Fatalf("after declare: exists=%v err=%v", ok, err)
	}
	res, err := conn.PublishRaw(ctx, "", q, driver.Outbound{Body: []byte("x"), MessageID: "m", Mandatory: true})
	if err != nil || !res.Routed || !res.Confirmed {
		t.Fatalf("publishing after a missing-queue check: %+v %v", res, err)
	}
}

func TestDeleteQueueOnRabbitMQTakesTheMessagesAndIsForgottenForRecovery(t *testing.T) {
	conn, ctx, clean := adminConn(t), ctxT(t), newCleaner(t)
	q := clean.queue(unique("delete"))
	if err := conn.DeclareQueue(ctx, q, acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.PublishRaw(ctx, "", q, driver.Outbound{Body: []byte("x"), MessageID: "m"}); err != nil {
		t.Fatal(err)
	}
	if err := conn.DeleteQueue(ctx, q); err != nil {
		t.Fatal(err)
	}
	if ok, err := conn.QueueExists(ctx, q); err != nil || ok {
		t.Fatalf("after delete: exists=%v err=%v", ok, err)
	}
	for _, op := range conn.Transport().(*Transport).topo.ops() {
		if op.name == q {
			t.Fatalf("recovery would declare the deleted queue again: %+v", op)
		}
	}
	if err := conn.DeclareQueue(ctx, q, acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	if n, err := conn.MessageCount(ctx, q); err != nil || n != 0 {
		t.Fatalf("the recreated queue holds %d (%v)", n, err)
	}
}

func TestDeleteQueueOnRabbitMQOfAMissingQueueSucceeds(t *testing.T) {
	if err := adminConn(t).DeleteQueue(ctxT(t), unique("never-declared")); err != nil {
		t.Fatal(err)
	}
}

func TestAQueueDeclaredAgainAfterDeleteQueueOnRabbitMQIsNotServedByTheOldConsumer(t *testing.T) {
	tr := openTransport(t) // first: without a broker it skips before the cleaner is registered
	ctx, clean := ctxT(t), newCleaner(t)
	q := clean.queue(unique("cancel"))
	if err := tr.DeclareQueue(ctx, q, driver.QueueSpec{}); err != nil {
		t.Fatal(err)
	}
	_, sub := consumeInbox(ctx, t, tr, q, 1)
	defer sub.Close()
	if err := tr.DeleteQueue(ctx, q); err != nil {
		t.Fatal(err)
	}
	if err := tr.DeclareQueue(ctx, q, driver.QueueSpec{}); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Publish(ctx, "", q, driver.Outbound{Body: []byte("x"), MessageID: "after"}); err != nil {
		t.Fatal(err)
	}
	if n, err := tr.MessageCount(ctx, q); err != nil || n != 1 {
		t.Fatalf("the old consumer took the new queue's message: ready=%d (%v)", n, err)
	}
}

func TestAnotherConnectionsExclusiveQueueExistsOnRabbitMQ(t *testing.T) {
	ctx := ctxT(t)
	owner, other := adminConn(t), adminConn(t)
	q := unique("exclusive")
	if err := owner.DeclareQueue(ctx, q, acemq.Exclusive()); err != nil {
		t.Fatal(err)
	}
	if ok, err := other.QueueExists(ctx, q); err != nil || !ok {
		t.Fatalf("exists=%v err=%v", ok, err)
	}
	err := other.DeleteQueue(ctx, q)
	if err == nil || !strings.Contains(err.Error(), "RESOURCE_LOCKED") {
		t.Fatalf("deleting another connection's exclusive queue: %v", err)
	}
}

func TestForgetQueueDropsTheQueueAndItsBindingsOnly(t *testing.T) {
	var tp topology
	tp.remember(topoOp{kind: opExchange, name: "orders"})
	tp.remember(topoOp{kind: opQueue, name: "orders"})
	tp.remember(topoOp{kind: opBind, name: "orders", source: "shop", key: "placed"})
	tp.remember(topoOp{kind: opQueue, name: "other"})
	tp.forgetQueue("orders")
	got := tp.ops()
	if len(got) != 2 || !slices.ContainsFunc(got, func(op topoOp) bool { return op.kind == opExchange && op.name == "orders" }) {
		t.Fatalf("left %+v", got)
	}
}

func TestAmqpCodeReadsTheBrokersReplyCode(t *testing.T) {
	wrapped := driver.Transportf(&amqp.Error{Code: amqp.NotFound, Reason: "NOT_FOUND"}, "declare")
	if amqpCode(nil) != 0 || amqpCode(wrapped) != amqp.NotFound || amqpCode(context.Canceled) != -1 {
		t.Fatal("amqpCode misread a code")
	}
}
