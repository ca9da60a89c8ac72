package acemq_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestQueueExistsSeesDeclaredQueuesAndCreatesNothing(t *testing.T) {
	conn, ctx := familyConn(t, ""), context.Background()
	for range 2 { // asking twice proves the first ask created nothing
		if ok, err := conn.QueueExists(ctx, "orders"); err != nil || ok {
			t.Fatalf("undeclared queue: exists=%v err=%v", ok, err)
		}
	}
	mustDeclare(t, conn, "orders")
	if ok, err := conn.QueueExists(ctx, "orders"); err != nil || !ok {
		t.Fatalf("declared queue: exists=%v err=%v", ok, err)
	}
}

func TestDeleteQueueTakesItsMessagesAndBindingsWithIt(t *testing.T) {
	conn, ctx := familyConn(t, ""), context.Background()
	mustDeclare(t, conn, "orders")
	if err := conn.DeclareExchange(ctx, "shop", "direct"); err != nil {
		t.Fatal(err)
	}
	if err := conn.Bind(ctx, "orders", "shop", "placed"); err != nil {
		t.Fatal(err)
	}
	publishRaw(t, conn, "shop", "placed")
	if err := conn.DeleteQueue(ctx, "orders"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := conn.QueueExists(ctx, "orders"); ok {
		t.Fatal("the queue survived DeleteQueue")
	}
	mustDeclare(t, conn, "orders")
	if n, err := conn.MessageCount(ctx, "orders"); err != nil || n != 0 {
		t.Fatalf("a recreated queue holds %d messages (%v)", n, err)
	}
	if publishRaw(t, conn, "shop", "placed").Routed {
		t.Fatal("the binding survived DeleteQueue")
	}
}

func TestDeleteQueueOfAMissingQueueSucceeds(t *testing.T) {
	if err := familyConn(t, "").DeleteQueue(context.Background(), "never-declared"); err != nil {
		t.Fatal(err)
	}
}

func TestAQueueDeclaredAgainAfterDeleteQueueIsNotServedByTheOldConsumer(t *testing.T) {
	conn, ctx := familyConn(t, ""), context.Background()
	mustDeclare(t, conn, "orders")
	got := make(chan driver.Delivery, 4)
	sub, err := conn.Transport().Consume(ctx, "orders", driver.ConsumeSpec{}, func(d driver.Delivery) { got <- d })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Close() })
	if err := conn.DeleteQueue(ctx, "orders"); err != nil {
		t.Fatal(err)
	}
	mustDeclare(t, conn, "orders")
	publishRaw(t, conn, "", "orders")
	if n, _ := conn.MessageCount(ctx, "orders"); n != 1 || len(got) != 0 {
		t.Fatalf("the old consumer still receives: ready=%d delivered=%d", n, len(got))
	}
}

func TestAnotherConnectionsExclusiveQueueExistsButCannotBeDeleted(t *testing.T) {
	ctx, url := context.Background(), "memory://family-excl-"+acemq.NewUUID()
	owner, other := connectTo(t, url), connectTo(t, url)
	if err := owner.DeclareQueue(ctx, "mine", acemq.Exclusive()); err != nil {
		t.Fatal(err)
	}
	if ok, err := other.QueueExists(ctx, "mine"); err != nil || !ok {
		t.Fatalf("exists=%v err=%v", ok, err)
	}
	err := other.DeleteQueue(ctx, "mine")
	if err == nil || !strings.Contains(err.Error(), "RESOURCE_LOCKED") || !strings.HasPrefix(err.Error(), `acemq: cannot delete queue "mine": `) {
		t.Fatalf("got %v", err)
	}
}

func TestQueueAdminWithoutTheSeamsSaysTheTransportCannot(t *testing.T) {
	conn, ctx := bareConn(t), context.Background()
	if _, err := conn.QueueExists(ctx, "q"); err == nil || !strings.Contains(err.Error(), "cannot look for a queue") {
		t.Fatalf("QueueExists: %v", err)
	}
	if err := conn.DeleteQueue(ctx, "q"); err == nil || !strings.Contains(err.Error(), "cannot delete a queue") {
		t.Fatalf("DeleteQueue: %v", err)
	}
}

func TestQueueAdminOnAClosedConnectionIsErrClosed(t *testing.T) {
	conn, ctx := familyConn(t, ""), context.Background()
	_ = conn.Close()
	if _, err := conn.QueueExists(ctx, "q"); !errors.Is(err, acemq.ErrClosed) {
		t.Fatalf("QueueExists: %v", err)
	}
	if err := conn.DeleteQueue(ctx, "q"); !errors.Is(err, acemq.ErrClosed) {
		t.Fatalf("DeleteQueue: %v", err)
	}
}

func mustDeclare(t *testing.T, conn *acemq.Conn, queue string) {
	t.Helper()
	if err := conn.DeclareQueue(context.Background(), queue, acemq.Transient()); err != nil {
		t.Fatal(err)
	}
}

func publishRaw(t *testing.T, conn *acemq.Conn, exchange, key string) acemq.PublishResult {
	t.Helper()
	res, err := conn.PublishRaw(context.Background(), exchange, key,
		driver.Outbound{Body: []byte(`{}`), ContentType: "application/json", MessageID: acemq.NewUUID(), Mandatory: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func connectTo(t *testing.T, url string) *acemq.Conn {
	t.Helper()
	conn, err := acemq.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}
