package acemq_test

import (
	"context"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestHealthIsUpWithItsConsumersAndDownOnceClosed(t *testing.T) {
	conn, err := acemq.Connect(context.Background(), brokerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	declare(t, conn, "orders")
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() })
	r := conn.Health(context.Background())
	if r.Status != acemq.HealthUp || r.Parts["consumers"] != 1 || r.Checked.IsZero() {
		t.Fatalf("open: %+v", r)
	}
	if again := conn.Health(context.Background()); again.Status != acemq.HealthUp {
		t.Fatalf("the probe queue is reused: %+v", again)
	}
	_ = conn.Close()
	r = conn.Health(context.Background())
	if r.Status != acemq.HealthDown || r.Detail != "the connection has been closed" || r.Parts["consumers"] != 0 {
		t.Fatalf("closed: %+v", r)
	}
}
