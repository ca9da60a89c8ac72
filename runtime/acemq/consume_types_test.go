package acemq_test

import (
	"context"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// TestCommandConsumerSetsAsideForeignMessageType: a command consumer that
// expects its message's type (what the generated consumers do with the
// routing key) parks, without running its handler, a delivery whose
// x-acemq-type names another type — an RPC reply a hostile request sent to
// the command queue carries "<request type>.reply" (patterns.Serve) or the
// queue's name (the family's Go responder) as its type — with a reason
// naming both; a delivery of its own type, or without the header (a
// publisher outside the family), is handled.
func TestCommandConsumerSetsAsideForeignMessageType(t *testing.T) {
	conn := connect(t)
	declare(t, conn, "orders.cancel-order")
	got := make(chan string, 10)
	consume(t, conn, "orders.cancel-order", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		got <- m.Payload.ID
		return acemq.Accept()
	}, acemq.ExpectMessageTypes("cancel.order"))
	send(t, conn, "orders.cancel-order", Order{ID: "reply"}) // type: the queue's name, as a family Go reply's
	send(t, conn, "orders.cancel-order", Order{ID: "reply"}, acemq.MessageType("cancel.order.reply"))
	for _, foreign := range []string{"orders.cancel-order", "cancel.order.reply"} {
		d := awaitMessage(t, conn, "orders.cancel-order.parked")
		reason := reasonOn(d)
		if !strings.Contains(reason, `"`+foreign+`"`) || !strings.Contains(reason, `("cancel.order")`) {
			t.Fatalf("parked with reason %q, want one naming %q and the expected type", reason, foreign)
		}
	}
	send(t, conn, "orders.cancel-order", Order{ID: "command"}, acemq.MessageType("cancel.order"))
	if id := <-got; id != "command" {
		t.Fatalf("handled %q, want the command (the foreign message reached the handler)", id)
	}
	raw := driver.Outbound{MessageID: "foreign", ContentType: "application/json", Body: []byte(`{"id":"untyped"}`)}
	if _, err := conn.PublishRaw(context.Background(), "", "orders.cancel-order", raw); err != nil {
		t.Fatal(err)
	}
	if id := <-got; id != "untyped" {
		t.Fatalf("handled %q, want the message without x-acemq-type", id)
	}
}

func TestExpectMessageTypesRefusesNoneOrEmpty(t *testing.T) {
	conn := connect(t)
	declare(t, conn, "q")
	for _, types := range [][]string{nil, {""}, {"a", ""}} {
		_, err := acemq.Consume(context.Background(), conn, "q", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() },
			acemq.ExpectMessageTypes(types...))
		if err == nil || !strings.Contains(err.Error(), "ExpectMessageTypes") {
			t.Errorf("ExpectMessageTypes(%q): err = %v", types, err)
		}
	}
}
