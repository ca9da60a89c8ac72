package acemqtest

import (
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

var routingCases = []conformanceCase{
	{"routing/direct-exchange-matches-the-whole-key", directRouting},
	{"routing/topic-exchange-matches-word-by-word", topicRouting},
	{"routing/fanout-exchange-ignores-the-key", fanoutRouting},
	{"routing/default-exchange-routes-by-queue-name", defaultExchange},
	{"routing/competing-consumers-share-a-queue", competingConsumers},
}

func directRouting(k *kit) {
	x, a, b := k.exchange("direct"), k.queue(nil), k.queue(nil)
	k.bind(a, x, "a")
	k.bind(b, x, "b")
	k.send(x, "a", "to-a")
	k.send(x, "b", "to-b")
	k.send(x, "a.b", "to-nowhere")
	k.consume(a, 10).expect("to-a")
	ib := k.consume(b, 10)
	ib.expect("to-b")
	k.send(x, "b", "sentinel") // nothing else reached b before it
	ib.expect("sentinel")
}

// topicCases are the word-matching rules of a topic exchange.
var topicCases = []struct {
	pattern, key string
	want         bool
}{
	{"orders.placed", "orders.placed", true},
	{"orders.placed", "orders.placed.eu", false},
	{"orders.*", "orders.placed", true},
	{"orders.*", "orders", false},
	{"orders.*", "orders.placed.eu", false},
	{"orders.*", "orders.", true},
	{"*.placed", "orders.placed", true},
	{"*.placed", "placed", false},
	{"a.*.c", "a.b.c", true},
	{"a.*.c", "a.c", false},
	{"a.*.c", "a.b.b.c", false},
	{"orders.#", "orders", true},
	{"orders.#", "orders.placed", true},
	{"orders.#", "orders.placed.eu", true},
	{"orders.#", "order.placed", false},
	{"#.eu", "eu", true},
	{"#.eu", "orders.placed.eu", true},
	{"#.eu", "orders.placed.us", false},
	{"a.#.c", "a.c", true},
	{"a.#.c", "a.b.b.c", true},
	{"a.#.c", "a.b.b.d", false},
	{"#", "anything.at.all", true},
	{"#", "", true},
	{"*", "one", true},
	{"*", "one.two", false},
	{"*.*", "one", false},
}

func topicRouting(k *kit) {
	for _, c := range topicCases {
		x, q := k.exchange("topic"), k.queue(nil)
		k.bind(q, x, c.pattern)
		if got := k.routed(x, c.key); got != c.want {
			k.t.Errorf("pattern %q, key %q: routed = %v, want %v", c.pattern, c.key, got, c.want)
		}
	}
}

func fanoutRouting(k *kit) {
	x, a, b := k.exchange("fanout"), k.queue(nil), k.queue(nil)
	k.bind(a, x, "ignored")
	k.bind(b, x, "")
	k.send(x, "whatever", "both")
	k.consume(a, 10).expect("both")
	k.consume(b, 10).expect("both")
}

func defaultExchange(k *kit) {
	q := k.queue(nil)
	if !k.routed("", q) {
		k.t.Errorf("the default exchange did not route key %q to the queue of that name", q)
	}
	if k.routed("", k.name("no-such-queue")) {
		k.t.Error("the default exchange routed a key that names no queue")
	}
	k.send("", q, "direct-to-queue")
	in := k.consume(q, 10)
	in.nextAcked() // the probe
	d := in.expect("direct-to-queue")
	if d.Exchange != "" || d.RoutingKey != q {
		k.t.Errorf("delivery exchange %q key %q, want \"\" and %q", d.Exchange, d.RoutingKey, q)
	}
}

func competingConsumers(k *kit) {
	q := k.queue(nil)
	first, second := k.consume(q, 1), k.consume(q, 1)
	const n = 20
	for i := range n {
		k.send("", q, "m"+string(rune('a'+i)))
	}
	seen := map[string]int{}
	counts := [2]int{}
	for len(seen) < n {
		select {
		case d := <-first.c:
			_ = d.Ack()
			seen[d.MessageID]++
			counts[0]++
		case d := <-second.c:
			_ = d.Ack()
			seen[d.MessageID]++
			counts[1]++
		case <-k.ctx.Done():
			k.t.Fatalf("only %d of %d messages delivered", len(seen), n)
		}
	}
	if counts[0] == 0 || counts[1] == 0 || counts[0]+counts[1] != n {
		k.t.Errorf("deliveries per consumer = %v, want both > 0 and each message once", counts)
	}
}

// outbound is a message with every property the transport carries.
func outbound(id string) driver.Outbound {
	return driver.Outbound{Body: []byte(`{"id":"` + id + `"}`), ContentType: "application/json", MessageID: id,
		Headers: map[string]any{"x-acemq-type": "order.placed", "tenant": "t1"}, ReplyTo: "replies",
		CorrelationID: "corr-" + id, Persistent: true}
}
