package acemqtest

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// agreementCases pin broker behaviours the in-memory transport once got
// wrong; each runs on both, so the two cannot drift apart again.
var agreementCases = []conformanceCase{
	{"deadletter/x-death-records-reason-queue-exchange-keys-and-time", xDeathRecorded},
	{"deadletter/a-second-death-in-the-same-queue-raises-the-count", xDeathCounts},
	{"deadletter/expiry-records-the-original-expiration", xDeathExpiration},
	{"exchanges/amq-exchanges-exist-and-the-prefix-is-reserved", amqExchanges},
	{"exclusive/another-connection-is-locked-out", exclusiveLocked},
	{"exclusive/the-queue-goes-with-its-connection", exclusiveGoes},
	{"limits/max-length-drops-the-oldest-and-dead-letters-it", maxLengthDropHead},
	{"limits/max-length-with-reject-publish-nacks-the-overflow", maxLengthRejectPublish},
	{"limits/a-quorum-queue-takes-the-message-that-goes-over-then-nacks", quorumRejectPublish},
	{"publish/an-invalid-expiration-is-refused", invalidExpiration},
	{"headers/values-arrive-as-the-broker-returns-them", headerTypes},
	{"settle/requeued-messages-keep-their-place", requeueKeepsOrder},
	{"settle/quorum-requeues-at-the-back-and-returns-a-closed-consumers-messages-first", quorumRequeueOrder},
	{"settle/quorum-redelivery-carries-x-delivery-count", quorumDeliveryCount},
}

// nackOnce consumes the next message of q and nacks it without requeue.
func nackOnce(k *kit, q, id string) {
	k.t.Helper()
	in := k.consume(q, 10)
	d := in.next()
	if d.MessageID != id {
		k.t.Fatalf("got %q, want %q", d.MessageID, id)
	}
	if err := d.Nack(false); err != nil {
		k.t.Fatal(err)
	}
	_ = in.sub.Close()
}

// death returns x-death[i] of d as a table.
func death(k *kit, d driver.Delivery, i int) map[string]any {
	k.t.Helper()
	deaths, _ := d.Headers["x-death"].([]any)
	if len(deaths) <= i {
		k.t.Fatalf("x-death = %#v, want at least %d entries", d.Headers["x-death"], i+1)
	}
	entry, ok := deaths[i].(map[string]any)
	if !ok {
		k.t.Fatalf("x-death[%d] = %#v (%T), want a table", i, deaths[i], deaths[i])
	}
	return entry
}

func xDeathRecorded(k *kit) {
	q, dead := withDLX(k, nil)
	before := time.Now().Add(-time.Second)
	k.publish("", q, outbound("dies"))
	nackOnce(k, q, "dies")
	d := dead.expect("dies")
	e := death(k, d, 0)
	want := map[string]any{"count": int64(1), "reason": "rejected", "queue": q, "exchange": "", "routing-keys": []any{q}}
	for f, v := range want {
		if !reflect.DeepEqual(e[f], v) {
			k.t.Errorf("x-death[0][%s] = %#v (%T), want %#v (%T)", f, e[f], e[f], v, v)
		}
	}
	if at, ok := e["time"].(time.Time); !ok || at.Before(before) || at.After(time.Now()) {
		k.t.Errorf("x-death[0][time] = %#v, want a time.Time of the death", e["time"])
	}
	first := map[string]any{"x-first-death-reason": "rejected", "x-first-death-queue": q, "x-first-death-exchange": ""}
	for h, v := range first {
		if d.Headers[h] != v {
			k.t.Errorf("%s = %#v, want %#v", h, d.Headers[h], v)
		}
	}
}

func xDeathCounts(k *kit) {
	q, dead := withDLX(k, nil)
	k.publish("", q, outbound("twice"))
	nackOnce(k, q, "twice")
	again := outbound("twice")
	again.Headers = dead.expect("twice").Headers
	k.publish("", q, again)
	nackOnce(k, q, "twice")
	d := dead.expect("twice")
	if deaths, _ := d.Headers["x-death"].([]any); len(deaths) != 1 {
		k.t.Fatalf("x-death = %#v, want one entry for one queue and reason", d.Headers["x-death"])
	}
	if c := death(k, d, 0)["count"]; c != int64(2) {
		k.t.Errorf("x-death count = %#v, want int64(2)", c)
	}
}

func xDeathExpiration(k *kit) {
	q, dead := withDLX(k, nil)
	msg := outbound("brief")
	msg.Expiration = "10"
	k.publish("", q, msg)
	e := death(k, dead.expect("brief"), 0)
	if e["reason"] != "expired" || e["original-expiration"] != "10" {
		k.t.Errorf("x-death[0] = %#v, want reason expired and original-expiration 10", e)
	}
}

func amqExchanges(k *kit) {
	kinds := map[string]string{"amq.direct": "direct", "amq.topic": "topic", "amq.fanout": "fanout", "amq.headers": "headers", "amq.match": "headers"}
	for x, kind := range kinds {
		if err := k.tr.DeclareExchange(k.ctx, x, driver.ExchangeSpec{Kind: kind, Durable: true}); err != nil {
			k.t.Errorf("declaring %s as it is (%s, durable): %v", x, kind, err)
		}
	}
	q := k.queue(nil)
	key := k.name("key")
	k.bind(q, "amq.direct", key)
	k.send("amq.direct", key, "through-amq-direct")
	k.consume(q, 10).expect("through-amq-direct")
	err := k.tr.DeclareExchange(k.ctx, "amq."+k.name("mine"), driver.ExchangeSpec{Kind: "direct"})
	if err == nil || !strings.Contains(err.Error(), "ACCESS_REFUSED") {
		k.t.Errorf("declaring a new amq.* exchange: %v, want ACCESS_REFUSED", err)
	}
	stillWorks(k)
}

// exclusiveQueue declares an exclusive queue on k's transport.
func exclusiveQueue(k *kit) string {
	k.t.Helper()
	q := k.name("excl")
	if err := k.tr.DeclareQueue(k.ctx, q, driver.QueueSpec{Exclusive: true}); err != nil {
		k.t.Fatal(err)
	}
	return q
}

func exclusiveLocked(k *kit) {
	q, other := exclusiveQueue(k), k.another()
	err := other.DeclareQueue(k.ctx, q, driver.QueueSpec{Exclusive: true})
	expectLocked(k, "declaring", err)
	_, err = other.Consume(k.ctx, q, driver.ConsumeSpec{Prefetch: 1}, func(driver.Delivery) {})
	expectLocked(k, "consuming", err)
	res, err := other.Publish(k.ctx, "", q, driver.Outbound{MessageID: "from-other", Mandatory: true})
	if err != nil || !res.Routed {
		k.t.Errorf("publishing to another connection's exclusive queue: %+v, %v; want routed", res, err)
	}
	k.consume(q, 10).expect("from-other")
}

func expectLocked(k *kit, what string, err error) {
	k.t.Helper()
	if err == nil || !strings.Contains(err.Error(), "RESOURCE_LOCKED") {
		k.t.Errorf("%s another connection's exclusive queue: %v, want RESOURCE_LOCKED", what, err)
	}
}

func exclusiveGoes(k *kit) {
	owner := k.another()
	q := k.name("excl")
	if err := owner.DeclareQueue(k.ctx, q, driver.QueueSpec{Exclusive: true}); err != nil {
		k.t.Fatal(err)
	}
	if !k.routed("", q) {
		k.t.Fatal("the exclusive queue did not exist before its connection closed")
	}
	if err := owner.Close(); err != nil {
		k.t.Fatal(err)
	}
	k.eventually("the exclusive queue to go with its connection", func() bool { return !k.routed("", q) })
}

func maxLengthDropHead(k *kit) {
	q, dead := withDLX(k, map[string]any{"x-max-length": 2})
	for _, id := range []string{"first", "second", "third"} {
		k.send("", q, id)
	}
	if e := death(k, dead.expect("first"), 0); e["reason"] != "maxlen" {
		k.t.Errorf("the dropped head died for %#v, want maxlen", e["reason"])
	}
	in := k.consume(q, 10)
	in.expect("second")
	in.expect("third")
}

func maxLengthRejectPublish(k *kit) {
	q := k.queue(map[string]any{"x-max-length": 1, "x-overflow": "reject-publish"})
	k.send("", q, "fits")
	_, err := k.tr.Publish(k.ctx, "", q, driver.Outbound{MessageID: "overflows", Body: []byte("overflows")})
	if !errors.Is(err, acemq.ErrBrokerRefused) {
		k.t.Errorf("publishing past x-max-length with reject-publish: %v, want ErrBrokerRefused (a nack)", err)
	}
	in := k.consume(q, 10)
	in.expect("fits")
	k.send("", q, "after")
	in.expect("after")
}

func invalidExpiration(k *kit) {
	q := k.queue(nil)
	for _, exp := range []string{"soon", "-1", "1.5"} {
		msg := outbound("bad-ttl")
		msg.Expiration = exp
		if _, err := k.tr.Publish(k.ctx, "", q, msg); err == nil || !strings.Contains(err.Error(), exp) {
			k.t.Errorf("publishing with expiration %q: %v, want a refusal naming it", exp, err)
		}
	}
	k.send("", q, "sentinel")
	k.consume(q, 10).expect("sentinel")
}

func headerTypes(k *kit) {
	q := k.queue(nil)
	at := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	msg := driver.Outbound{MessageID: "typed", Headers: map[string]any{
		"small": 7, "big": math.MaxInt32 + 1, "unsigned": uint(9), "i64": int64(3), "text": "t", "flag": true,
		"list": []string{"a", "b"}, "table": map[string]any{"n": 1}, "at": at,
	}}
	k.publish("", q, msg)
	d := k.consume(q, 10).expect("typed")
	want := map[string]any{
		"small": int32(7), "big": int64(math.MaxInt32 + 1), "unsigned": int64(9), "i64": int64(3), "text": "t", "flag": true,
		"list": []any{"a", "b"}, "table": map[string]any{"n": int32(1)},
	}
	for h, v := range want {
		if !reflect.DeepEqual(d.Headers[h], v) {
			k.t.Errorf("header %s = %#v (%T), want %#v (%T)", h, d.Headers[h], d.Headers[h], v, v)
		}
	}
	if got, ok := d.Headers["at"].(time.Time); !ok || !got.Equal(at.Truncate(time.Second)) {
		k.t.Errorf("header at = %#v, want %v to the second", d.Headers["at"], at.Truncate(time.Second))
	}
}

func requeueKeepsOrder(k *kit) {
	q := k.queue(nil)
	for _, id := range []string{"a", "b", "c"} {
		k.send("", q, id)
	}
	in := k.consume(q, 3)
	got := []driver.Delivery{in.next(), in.next(), in.next()}
	if err := in.sub.Cancel(); err != nil {
		k.t.Fatal(err)
	}
	for i := len(got) - 1; i >= 0; i-- {
		if err := got[i].Nack(true); err != nil {
			k.t.Fatal(err)
		}
	}
	in = k.consume(q, 3)
	for _, id := range []string{"a", "b", "c"} {
		if d := in.expect(id); !d.Redelivered {
			k.t.Errorf("%s came back without the redelivered flag", id)
		}
	}
}

func quorumDeliveryCount(k *kit) {
	q := k.name("quorum")
	spec := queueSpec(map[string]any{driver.ArgQueueType: "quorum"})
	spec.Durable = true
	if err := k.tr.DeclareQueue(k.ctx, q, spec); err != nil {
		k.t.Fatal(err)
	}
	k.send("", q, "counted")
	in := k.consume(q, 1)
	d := in.next()
	if v, ok := d.Headers["x-delivery-count"]; ok {
		k.t.Errorf("first delivery carries x-delivery-count %#v, want none", v)
	}
	if err := d.Nack(true); err != nil {
		k.t.Fatal(err)
	}
	if d := in.expect("counted"); d.Headers["x-delivery-count"] != int64(1) || !d.Redelivered {
		k.t.Errorf("redelivery x-delivery-count = %#v, redelivered %v; want int64(1), true", d.Headers["x-delivery-count"], d.Redelivered)
	}
}

func quorumRejectPublish(k *kit) {
	q := k.name("quorum-full")
	spec := queueSpec(map[string]any{driver.ArgQueueType: "quorum", "x-max-length": 2, "x-overflow": "reject-publish"})
	spec.Durable = true
	if err := k.tr.DeclareQueue(k.ctx, q, spec); err != nil {
		k.t.Fatal(err)
	}
	for _, id := range []string{"one", "two", "over"} {
		k.send("", q, id)
	}
	_, err := k.tr.Publish(k.ctx, "", q, driver.Outbound{MessageID: "refused"})
	if !errors.Is(err, acemq.ErrBrokerRefused) {
		k.t.Fatalf("publishing to a quorum queue over its x-max-length: %v, want ErrBrokerRefused", err)
	}
	in := k.consume(q, 10)
	in.expect("one")
	in.expect("two") // all three delivered: none ready, under the 80% where publishes resume
	k.send("", q, "resumed")
	in.expect("over")
	in.expect("resumed")
}

// quorumQueue declares a durable quorum queue with args.
func quorumQueue(k *kit, args map[string]any) string {
	k.t.Helper()
	q := k.name("quorum")
	spec := queueSpec(args)
	spec.Args[driver.ArgQueueType] = "quorum"
	spec.Durable = true
	if err := k.tr.DeclareQueue(k.ctx, q, spec); err != nil {
		k.t.Fatal(err)
	}
	return q
}

func quorumRequeueOrder(k *kit) {
	q := quorumQueue(k, nil)
	for _, id := range []string{"a", "b", "c", "d"} {
		k.send("", q, id)
	}
	in := k.consume(q, 2)
	a, b := in.next(), in.next()
	if err := in.sub.Cancel(); err != nil {
		k.t.Fatal(err)
	}
	_ = b.Nack(true)
	_ = a.Nack(true)
	held := k.consume(q, 2)
	held.next()
	held.next()
	if err := held.sub.Close(); err != nil {
		k.t.Fatal(err)
	}
	in = k.consume(q, 4)
	for _, id := range []string{"c", "d", "b", "a"} {
		in.expect(id)
	}
}
