package acemq

import (
	"context"
	"testing"
	"time"
)

// TestDeclareTopologyRestoresSubscriberBindings: after the topic exchange is
// deleted (its bindings with it) and the domain's topology is applied again,
// the queues of the connection's running subscribers are bound to it again,
// so an event published afterwards reaches them instead of being confirmed
// and dropped.
func TestDeclareTopologyRestoresSubscriberBindings(t *testing.T) {
	ctx := context.Background()
	conn, err := Connect(ctx, memURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sub := NewTopology().Exchange("shop", "topic").Queue("billing.order.placed", Transient()).
		Binding("billing.order.placed", "shop", "order.placed")
	got := make(chan string, 10)
	if err := sub.Apply(ctx, conn); err != nil {
		t.Fatal(err)
	}
	c, err := Consume(ctx, conn, "billing.order.placed", func(_ context.Context, m Message[string]) Ack {
		got <- m.Payload
		return Accept()
	}, ConsumeWith(StringCodec{}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	publishString(t, conn, "before")
	expectString(t, got, "before")
	if err := conn.transport.(*memTransport).c.DeleteExchange("shop"); err != nil {
		t.Fatal(err)
	}
	if err := NewTopology().Exchange("shop", "topic").Apply(ctx, conn); err != nil {
		t.Fatal(err)
	}
	publishString(t, conn, "after")
	expectString(t, got, "after")
}

func publishString(t *testing.T, conn *Conn, body string) {
	t.Helper()
	res, err := NewPublisher(conn, "shop", "order.placed", PublishWith[string](StringCodec{}), Mandatory[string]()).
		SendResult(context.Background(), body)
	if err != nil || !res.Routed {
		t.Fatalf("publish %q: %+v %v", body, res, err)
	}
}

func expectString(t *testing.T, got <-chan string, want string) {
	t.Helper()
	expectFrom(t, got, want, "")
}

// expectFrom waits 5s for the next string on got and fails unless it is
// want; the failure names want after prefix.
func expectFrom(t *testing.T, got <-chan string, want, prefix string) {
	t.Helper()
	select {
	case g := <-got:
		if g != want {
			t.Fatalf("handled %q, want %q", g, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s%q was never handled", prefix, want)
	}
}
