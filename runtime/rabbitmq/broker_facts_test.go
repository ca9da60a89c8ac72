package rabbitmq

import (
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// The tests below pin RabbitMQ behaviours that memory:// did not model when
// they were written (see the transport conformance report); they hold the
// broker's side so the fake can be brought level.

func TestBrokerAddsXDeathWhenItDeadLetters(t *testing.T) {
	tr, c := openTransport(t), newCleaner(t)
	ctx, dlx, dlq := ctxT(t), c.exchange(unique("facts-dlx")), c.queue(unique("facts-dlq"))
	if err := tr.DeclareExchange(ctx, dlx, acemq.ExchangeSpec{Kind: "fanout"}); err != nil {
		t.Fatal(err)
	}
	if err := tr.DeclareQueue(ctx, dlq, acemq.QueueSpec{}); err != nil {
		t.Fatal(err)
	}
	if err := tr.Bind(ctx, dlq, dlx, ""); err != nil {
		t.Fatal(err)
	}
	q := c.queue(unique("facts-src"))
	if err := tr.DeclareQueue(ctx, q, acemq.QueueSpec{Args: map[string]any{"x-dead-letter-exchange": dlx}}); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Publish(ctx, "", q, acemq.Outbound{MessageID: "m"}); err != nil {
		t.Fatal(err)
	}
	src := newInbox()
	if _, err := tr.Consume(ctx, q, acemq.ConsumeSpec{Prefetch: 1}, src.deliver); err != nil {
		t.Fatal(err)
	}
	_ = src.next(t).Nack(false)
	dead := newInbox()
	if _, err := tr.Consume(ctx, dlq, acemq.ConsumeSpec{Prefetch: 1}, dead.deliver); err != nil {
		t.Fatal(err)
	}
	d := dead.next(t)
	deaths, _ := d.Headers["x-death"].([]any)
	first, _ := d.Headers["x-first-death-reason"].(string)
	if len(deaths) != 1 || first != "rejected" {
		t.Fatalf("x-death = %#v, x-first-death-reason = %q; want one death, rejected", d.Headers["x-death"], first)
	}
}

func TestBrokerHasTheAmqPrefixedExchangesAndReservesThePrefix(t *testing.T) {
	tr := openTransport(t)
	ctx := ctxT(t)
	if res, err := tr.Publish(ctx, "amq.direct", unique("k"), acemq.Outbound{MessageID: "m"}); err != nil || !res.Confirmed {
		t.Fatalf("publish to amq.direct: %+v, %v; want confirmed", res, err)
	}
	err := tr.DeclareExchange(ctx, "amq."+unique("mine"), acemq.ExchangeSpec{Kind: "direct"})
	if err == nil || !strings.Contains(err.Error(), "ACCESS_REFUSED") {
		t.Fatalf("declaring an amq.* exchange: %v, want ACCESS_REFUSED", err)
	}
}

func TestBrokerLocksAnExclusiveQueueToItsConnection(t *testing.T) {
	owner, other := openTransport(t), openTransport(t)
	ctx, q := ctxT(t), unique("facts-excl")
	if err := owner.DeclareQueue(ctx, q, acemq.QueueSpec{Exclusive: true}); err != nil {
		t.Fatal(err)
	}
	_, err := other.Consume(ctx, q, acemq.ConsumeSpec{}, func(acemq.Delivery) {})
	if err == nil || !strings.Contains(err.Error(), "RESOURCE_LOCKED") {
		t.Fatalf("consuming another connection's exclusive queue: %v, want RESOURCE_LOCKED", err)
	}
}
