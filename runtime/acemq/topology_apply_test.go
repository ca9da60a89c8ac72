package acemq

import (
	"context"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func connectMemory(t *testing.T) *Conn {
	t.Helper()
	conn, err := Connect(context.Background(), "memory://"+t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func routed(t *testing.T, conn *Conn, exchange, key string) bool {
	t.Helper()
	res, err := conn.PublishRaw(context.Background(), exchange, key, driver.Outbound{Body: []byte("x"), Mandatory: true, MessageID: NewUUID()})
	if err != nil {
		t.Fatal(err)
	}
	return res.Routed
}

func TestTopologyApplyRoutesEndToEndOnMemory(t *testing.T) {
	conn := connectMemory(t)
	topo := ordersTopology().Retries("orders.new", FixedRetry(3, time.Minute))
	if err := topo.Apply(context.Background(), conn); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ exchange, key string }{
		{"orders", "order.placed"}, {DeadLetterExchange, "orders.new.dlq"}, {DeadLetterExchange, "orders.new.parked"},
		{RetryExchange, "orders.new"}, {"", "orders.new.retry.1m"},
	} {
		if !routed(t, conn, r.exchange, r.key) {
			t.Errorf("%s/%s reached no queue", r.exchange, r.key)
		}
	}
	if routed(t, conn, "orders", "invoice.sent") {
		t.Errorf("a key the binding does not match was routed")
	}
}

func TestTopologyApplyIsIdempotent(t *testing.T) {
	conn := connectMemory(t)
	for range 2 {
		if err := ordersTopology().Apply(context.Background(), conn); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTopologyApplyRefusesARedeclarationWithOtherSettings(t *testing.T) {
	conn := connectMemory(t)
	if err := NewTopology().Queue("q").Apply(context.Background(), conn); err != nil {
		t.Fatal(err)
	}
	if err := NewTopology().Queue("q", OfType(QueueClassic)).Apply(context.Background(), conn); err == nil {
		t.Errorf("a classic redeclaration of a quorum queue was accepted")
	}
}
