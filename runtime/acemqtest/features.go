package acemqtest

import (
	"fmt"
	"reflect"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// featureCases pin queue and exchange arguments the in-memory transport
// once ignored.
var featureCases = []conformanceCase{
	{"features/a-single-active-consumer-queue-serves-one-consumer-at-a-time", singleActiveConsumer},
	{"features/a-higher-priority-consumer-is-served-first", consumerPriority},
	{"features/a-quorum-delivery-limit-dead-letters-the-message", deliveryLimit},
	{"features/an-alternate-exchange-takes-what-would-reach-no-queue", alternateExchange},
	{"features/a-pull-from-a-quorum-queue-carries-x-delivery-count", quorumPull},
}

func singleActiveConsumer(k *kit) {
	q := k.queue(map[string]any{"x-single-active-consumer": true})
	active, standby := k.consume(q, 10), k.consume(q, 10)
	for i := range 4 {
		k.send("", q, fmt.Sprint("sac-", i))
	}
	for i := range 4 {
		active.expect(fmt.Sprint("sac-", i))
	}
	if err := active.sub.Close(); err != nil {
		k.t.Fatal(err)
	}
	k.send("", q, "after")
	standby.expect("after")
	if n := len(standby.c); n != 0 {
		k.t.Errorf("the standby consumer holds %d more deliveries, want 0", n)
	}
}

func deliveryLimit(k *kit) {
	dlx, dlq := k.exchange("fanout"), k.queue(nil)
	k.bind(dlq, dlx, "")
	dead := k.consume(dlq, 10)
	q := quorumQueue(k, map[string]any{"x-delivery-limit": 1, driver.ArgDeadLetterExchange: dlx})
	k.send("", q, "limited")
	in := k.consume(q, 1)
	for range 2 {
		if err := in.next().Nack(true); err != nil {
			k.t.Fatal(err)
		}
	}
	d := dead.expect("limited")
	if d.Headers["x-first-death-reason"] != "delivery_limit" {
		k.t.Errorf("x-first-death-reason = %#v, want delivery_limit", d.Headers["x-first-death-reason"])
	}
	if v, ok := d.Headers["x-delivery-count"]; ok {
		k.t.Errorf("the dead letter carries x-delivery-count %#v, want none", v)
	}
}

func alternateExchange(k *kit) {
	ae, caught := k.exchange("fanout"), k.queue(nil)
	k.bind(caught, ae, "")
	x := k.name("x-with-ae")
	spec := driver.ExchangeSpec{Kind: "direct", AutoDelete: true, Args: map[string]any{"alternate-exchange": ae}}
	if err := k.tr.DeclareExchange(k.ctx, x, spec); err != nil {
		k.t.Fatal(err)
	}
	res := k.publish(x, "nobody", driver.Outbound{MessageID: "strays", Mandatory: true})
	if !res.Routed {
		k.t.Errorf("a mandatory publish caught by the alternate exchange = %+v, want routed", res)
	}
	if d := k.consume(caught, 10).expect("strays"); d.Exchange != x || d.RoutingKey != "nobody" {
		k.t.Errorf("caught via %q key %q, want the original %q and nobody", d.Exchange, d.RoutingKey, x)
	}
}

// quorumPull runs only on a transport that can pull (driver.Puller).
func quorumPull(k *kit) {
	puller, ok := k.tr.(driver.Puller)
	if !ok {
		return
	}
	q := quorumQueue(k, nil)
	k.send("", q, "pulled")
	var d driver.Delivery
	k.eventually("a message to pull", func() bool {
		got, ok, err := puller.Pull(k.ctx, q)
		if err != nil {
			k.t.Fatal(err)
		}
		d = got
		return ok
	})
	if d.MessageID != "pulled" || d.Headers["x-delivery-count"] != int64(0) {
		k.t.Errorf("pulled %s with x-delivery-count %#v, want pulled with int64(0)", d.MessageID, d.Headers["x-delivery-count"])
	}
}

func consumerPriority(k *kit) {
	q := k.queue(nil)
	low := k.consumeSpec(q, driver.ConsumeSpec{Prefetch: 2})
	high := k.consumeSpec(q, driver.ConsumeSpec{Prefetch: 2, Args: map[string]any{"x-priority": 10}})
	for i := range 3 {
		k.send("", q, fmt.Sprint("p-", i))
	}
	got := []string{high.next().MessageID, high.next().MessageID, low.next().MessageID}
	if want := []string{"p-0", "p-1", "p-2"}; !reflect.DeepEqual(got, want) {
		k.t.Errorf("high, high, low got %v, want %v: the high-priority consumer fills its prefetch first", got, want)
	}
}
