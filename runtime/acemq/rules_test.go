package acemq_test

import (
	"context"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

func TestConnOptionsAppliesEveryOptionInOrder(t *testing.T) {
	var calls recorder[string]
	mark := func(name string) acemq.ConnOption {
		return acemq.WithPublishInterceptor(func(context.Context, *acemq.PublishContext) error {
			calls.add(name)
			return nil
		})
	}
	conn := connect(t, acemqimpl.ConnOptions(mark("a"), nil, mark("b")))
	declare(t, conn, "orders")
	send(t, conn, "orders", Order{})
	if got := strings.Join(calls.all(), ","); got != "a,b" {
		t.Fatalf("interceptors ran as %q", got)
	}
}

func TestConnOptionsStopsAtTheFirstError(t *testing.T) {
	_, err := acemq.Connect(context.Background(), brokerURL(t), acemqimpl.ConnOptions(acemq.WithPrefetch(-1), acemq.WithOrigin("")))
	if err == nil || !strings.Contains(err.Error(), "WithPrefetch") {
		t.Fatalf("got %v", err)
	}
}

func TestHeaderRulesOfRequiringAHeaderRefusesItsTypeWithoutIt(t *testing.T) {
	conn := connect(t, acemqimpl.HeaderRulesOf[Order]("orders", acemq.HeaderRule{Name: "x-tenant", Required: true}))
	declare(t, conn, "orders")
	err := acemq.NewPublisher[Order](conn, "", "orders").Send(context.Background(), Order{})
	if err == nil || err.Error() != `acemq: a "orders" message requires the header "x-tenant"` {
		t.Fatalf("got %v", err)
	}
	send(t, conn, "orders", Order{}, acemq.Header("x-tenant", "acme"))
	if err := acemq.NewPublisher[Refund](conn, "", "orders").Send(context.Background(), Refund{}); err != nil {
		t.Fatalf("another type was refused: %v", err)
	}
}

func TestHeaderRulesOfRequiringAHeaderDeadLettersItsTypeWithoutIt(t *testing.T) {
	// The rules' payload type is Refund, so publishing an Order passes and
	// only the consume side, which goes by the message type, refuses it.
	conn := connect(t, acemqimpl.HeaderRulesOf[Refund]("orders", acemq.HeaderRule{Name: "x-tenant", Required: true}))
	declare(t, conn, "orders")
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() })
	send(t, conn, "orders", Order{ID: "o-1"})
	d := awaitMessage(t, conn, "orders.dlq")
	if got := reasonOn(d); got != `an interceptor refused it: the message lacks the required header "x-tenant"` {
		t.Fatalf("reason %q", got)
	}
}

func TestSubscriberQueueRefusesAnEmptyService(t *testing.T) {
	for _, s := range []string{"", "  ", "bill ing", "amq.x", "a*"} {
		if _, err := acemqimpl.SubscriberQueue(s, "order.placed"); err == nil {
			t.Errorf("service %q was accepted", s)
		}
	}
	q, err := acemqimpl.SubscriberQueue("billing", "order.placed")
	if err != nil || q != "billing.order.placed" {
		t.Fatalf("got %q, %v", q, err)
	}
	if _, err := acemqimpl.SubscriberQueue("", "k"); err == nil || !strings.HasPrefix(err.Error(), "acemq: ") {
		t.Fatalf("got %v", err)
	}
}
