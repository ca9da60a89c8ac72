package main

import (
	"context"
	"strings"
	"testing"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

const planContract = `acemq: 1
domain: DOMAIN
events:
  ItemShipped:
    fields: {sku: string}
commands:
  CancelOrder:
    fields: {orderId: string}
  RefundOrder:
    fields: {orderId: string}
rpc:
  GetOrder:
    request: {fields: {orderId: string}}
    response: {fields: {orderId: string}}
`

// TestPlanFindsNoDifferenceOnATopologyTheRuntimeDeclared declares the
// contract's topology the way generated code does (acemqimpl specs consuming
// and serving) and expects plan to find nothing, through the management API
// and through AMQP alone.
func TestPlanFindsNoDifferenceOnATopologyTheRuntimeDeclared(t *testing.T) {
	r := newOpsRig(t, planContract)
	mgmt := acemqtest.ManagementURL(t)
	ctx := context.Background()
	accept := func(context.Context, acemq.Message[map[string]any]) acemq.Ack { return acemq.Accept() }
	for _, name := range []string{"CancelOrder", "RefundOrder", "ItemShipped"} {
		e := r.entry(name)
		spec := &acemqimpl.MessageSpec[map[string]any]{Exchange: e.Exchange, RoutingKey: e.RoutingKey, Queue: e.Queue,
			Codec: acemqimpl.Static(acemq.JSONCodec{}), Retry: e.Retry.Policy()}
		var k *acemq.Consumer
		var err error
		if e.Kind == "event" {
			k, err = spec.Subscribe(ctx, r.conn, r.service, accept)
		} else {
			k, err = spec.Consume(ctx, r.conn, accept)
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = k.Close() })
	}
	rpc := r.entry("GetOrder")
	srv, err := (&acemqimpl.RPCSpec[map[string]any, map[string]any]{Queue: rpc.Queue, Codec: acemqimpl.Static(acemq.JSONCodec{})}).
		Serve(ctx, r.conn, func(_ context.Context, m acemq.Message[map[string]any]) (map[string]any, error) {
			return m.Payload, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })

	code, out, errOut := cli(t, "plan", "--url", r.url, "--management", mgmt, "--service", r.service, r.dir)
	if code != exitOK || !strings.Contains(out, "no differences: ") {
		t.Errorf("plan through the management API: exit %d:\n%s%s", code, out, errOut)
	}
	if strings.Contains(out+errOut, "guest:guest") {
		t.Error("plan printed the management credentials")
	}
	code, out, errOut = cli(t, "plan", "--url", r.url, "--service", r.service, r.dir)
	if code != exitOK || !strings.Contains(out, "no differences: ") || !strings.Contains(out, "not checked without --management: bindings") {
		t.Errorf("plan through AMQP: exit %d:\n%s%s", code, out, errOut)
	}
}

// TestPlanClassifiesSeededDrift seeds a missing queue, a classic queue where
// the contract implies quorum, a missing binding, a wrong dead-letter
// exchange and an extra binding, and expects each classified; --apply then
// declares only what is missing.
func TestPlanClassifiesSeededDrift(t *testing.T) {
	r := newOpsRig(t, planContract)
	mgmt := acemqtest.ManagementURL(t)
	cancel, refund, rpc := r.entry("CancelOrder"), r.entry("RefundOrder"), r.entry("GetOrder")
	seed(t, r.url, func(ch *amqp.Channel) error {
		if err := ch.ExchangeDeclare(r.domain, "topic", true, false, false, false, nil); err != nil {
			return err
		}
		// CancelOrder's queue: classic, not bound on its key, bound on another.
		if _, err := ch.QueueDeclare(cancel.Queue, true, false, false, false, amqp.Table{
			driver.ArgDeadLetterExchange: acemq.DeadLetterExchange, driver.ArgDeadLetterRoutingKey: cancel.Queue + ".dlq"}); err != nil {
			return err
		}
		if err := ch.QueueBind(cancel.Queue, "stray.key", r.domain, false, nil); err != nil {
			return err
		}
		// The RPC's queue: quorum, dead-lettering to the wrong exchange.
		_, err := ch.QueueDeclare(rpc.Queue, true, false, false, false, amqp.Table{
			driver.ArgQueueType: "quorum", driver.ArgDeadLetterExchange: "wrong.dlx", driver.ArgDeadLetterRoutingKey: rpc.Queue + ".dlq"})
		return err
	})

	code, out, errOut := cli(t, "plan", "--url", r.url, "--management", mgmt, r.dir)
	if code != exitFindings {
		t.Fatalf("plan of a drifted broker: exit %d; want 1:\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"missing queue " + refund.Queue + ": durable, quorum, x-dead-letter-exchange=acemq.dlx",
		"immutable queue " + cancel.Queue + ": type expected quorum, actual classic; RabbitMQ cannot change it in place",
		"1. declare " + cancel.Queue + ".migrate with the contract's arguments",
		"missing binding " + r.domain + " -> " + cancel.Queue + " (" + cancel.RoutingKey + ")",
		"immutable queue " + rpc.Queue + ": argument x-dead-letter-exchange expected acemq.dlx, actual wrong.dlx",
		"extra binding " + r.domain + " -> " + cancel.Queue + " (stray.key): the contract does not imply it",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}

	code, out, errOut = cli(t, "plan", "--url", r.url, r.dir)
	if code != exitFindings || !strings.Contains(out, "missing queue "+refund.Queue) ||
		!strings.Contains(out, "immutable queue "+cancel.Queue+": PRECONDITION_FAILED") ||
		!strings.Contains(out, "immutable queue "+rpc.Queue) || !strings.Contains(out, "not checked without --management") {
		t.Errorf("plan through AMQP: exit %d:\n%s%s", code, out, errOut)
	}

	code, out, errOut = cli(t, "plan", "--url", r.url, "--management", mgmt, "--apply", r.dir)
	if code != exitFindings || !strings.Contains(out, "declared queue "+refund.Queue+"\n") ||
		!strings.Contains(out, "declared binding "+r.domain+" -> "+cancel.Queue+" ("+cancel.RoutingKey+")") {
		t.Errorf("plan --apply: exit %d:\n%s%s", code, out, errOut)
	}
	code, out, _ = cli(t, "plan", "--url", r.url, "--management", mgmt, r.dir)
	if code != exitFindings || strings.Contains(out, "missing ") || !strings.Contains(out, "immutable queue "+cancel.Queue) ||
		!strings.Contains(out, "extra binding") {
		t.Errorf("after --apply, only what it may not touch should differ: exit %d:\n%s", code, out)
	}
}

func seed(t *testing.T, url string, fn func(*amqp.Channel) error) {
	t.Helper()
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	if err := fn(ch); err != nil {
		t.Fatal(err)
	}
}
