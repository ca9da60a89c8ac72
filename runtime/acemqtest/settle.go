package acemqtest

import (
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

var settleCases = []conformanceCase{
	{"settle/delivery-carries-every-property", deliveryProperties},
	{"settle/ack-removes-the-message", ackRemoves},
	{"settle/nack-with-requeue-redelivers-marked-redelivered", nackRequeue},
	{"settle/nack-without-requeue-and-no-dead-letter-exchange-drops", nackDrops},
	{"settle/close-returns-unsettled-messages-redelivered", closeReturnsUnsettled},
	{"settle/cancel-stops-deliveries-and-keeps-settling", cancelKeepsSettling},
	{"settle/prefetch-bounds-unsettled-deliveries", prefetchBounds},
	{"settle/consuming-an-undeclared-queue-fails", consumeUndeclared},
}

func deliveryProperties(k *kit) {
	q := k.queue(nil)
	k.publish("", q, outbound("props"))
	d := k.consume(q, 10).expect("props")
	want := outbound("props")
	if string(d.Body) != string(want.Body) || d.ContentType != want.ContentType || d.ReplyTo != want.ReplyTo ||
		d.CorrelationID != want.CorrelationID || d.Redelivered {
		k.t.Errorf("delivery = %+v, want the published properties, not redelivered", d)
	}
	for h, v := range want.Headers {
		if d.Headers[h] != v {
			k.t.Errorf("header %s = %#v, want %#v", h, d.Headers[h], v)
		}
	}
}

func ackRemoves(k *kit) {
	q := k.queue(nil)
	k.send("", q, "once")
	in := k.consume(q, 10)
	in.expect("once")
	k.send("", q, "sentinel")
	in.expect("sentinel") // not "once" again
}

func nackRequeue(k *kit) {
	q := k.queue(nil)
	k.send("", q, "again")
	in := k.consume(q, 10)
	d := in.next()
	if d.MessageID != "again" || d.Redelivered {
		k.t.Fatalf("first delivery %q redelivered=%v, want again, not redelivered", d.MessageID, d.Redelivered)
	}
	if err := d.Nack(true); err != nil {
		k.t.Fatal(err)
	}
	if d := in.expect("again"); !d.Redelivered {
		k.t.Error("a requeued message came back without the redelivered flag")
	}
}

func nackDrops(k *kit) {
	q := k.queue(nil)
	k.send("", q, "dropped")
	in := k.consume(q, 10)
	if err := in.next().Nack(false); err != nil {
		k.t.Fatal(err)
	}
	k.send("", q, "sentinel")
	in.expect("sentinel")
}

func closeReturnsUnsettled(k *kit) {
	q := k.queue(nil)
	k.send("", q, "unsettled")
	first := k.consume(q, 10)
	first.next()
	if err := first.sub.Close(); err != nil {
		k.t.Fatal(err)
	}
	if d := k.consume(q, 10).expect("unsettled"); !d.Redelivered {
		k.t.Error("a message returned by Close came back without the redelivered flag")
	}
}

func cancelKeepsSettling(k *kit) {
	q := k.queue(nil)
	k.send("", q, "held")
	first := k.consume(q, 10)
	held := first.next()
	if err := first.sub.Cancel(); err != nil {
		k.t.Fatal(err)
	}
	second := k.consume(q, 10)
	for i := range 4 {
		k.send("", q, fmt.Sprint("after-", i))
	}
	for i := range 4 {
		second.expect(fmt.Sprint("after-", i))
	}
	if err := held.Ack(); err != nil {
		k.t.Errorf("acking a delivery handed out before Cancel: %v", err)
	}
}

func prefetchBounds(k *kit) {
	q := k.queue(nil)
	for i := range 5 {
		k.send("", q, fmt.Sprint("p", i))
	}
	in := k.consume(q, 2)
	a, b := in.next(), in.next()
	if inspector, ok := k.tr.(driver.QueueInspector); ok {
		if n, err := inspector.MessageCount(k.ctx, q); err != nil || n != 3 {
			k.t.Errorf("with 2 unsettled of 5, MessageCount = %d, %v; want 3 still ready", n, err)
		}
	}
	if err := a.Ack(); err != nil {
		k.t.Fatal(err)
	}
	if d := in.next(); d.MessageID != "p2" {
		k.t.Errorf("after one ack got %q, want p2 (in order, two unsettled at most)", d.MessageID)
	}
	_ = b.Ack()
}

func consumeUndeclared(k *kit) {
	_, err := k.tr.Consume(k.ctx, k.name("undeclared"), driver.ConsumeSpec{Prefetch: 1}, func(driver.Delivery) {})
	if err == nil {
		k.t.Error("consuming an undeclared queue succeeded")
	}
}
