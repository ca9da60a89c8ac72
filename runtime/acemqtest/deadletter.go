package acemqtest

import (
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

var deadLetterCases = []conformanceCase{
	{"deadletter/nack-without-requeue-goes-to-the-dead-letter-exchange", deadLetterOnNack},
	{"deadletter/queue-ttl-expiry-goes-to-the-dead-letter-exchange", deadLetterOnQueueTTL},
	{"deadletter/message-expiration-goes-to-the-dead-letter-exchange", deadLetterOnExpiration},
	{"deadletter/dead-letter-routing-key-replaces-the-key", deadLetterRoutingKey},
	{"deadletter/only-the-head-of-the-queue-expires", expiryAtTheHeadOnly},
	{"deadletter/a-zero-ttl-reaches-a-waiting-consumer-or-expires", zeroTTL},
}

// withDLX declares a fanout dead-letter exchange, a queue bound to it, and a
// source queue with args plus x-dead-letter-exchange.
func withDLX(k *kit, args map[string]any) (source string, dead *inbox) {
	dlx, dlq := k.exchange("fanout"), k.queue(nil)
	k.bind(dlq, dlx, "")
	all := map[string]any{"x-dead-letter-exchange": dlx}
	for n, v := range args {
		all[n] = v
	}
	return k.queue(all), k.consume(dlq, 10)
}

func deadLetterOnNack(k *kit) {
	q, dead := withDLX(k, nil)
	k.publish("", q, outbound("rejected"))
	if err := k.consume(q, 10).next().Nack(false); err != nil {
		k.t.Fatal(err)
	}
	d := dead.expect("rejected")
	checkDeadLettered(k, d, q)
}

func deadLetterOnQueueTTL(k *kit) {
	q, dead := withDLX(k, map[string]any{"x-message-ttl": 20})
	k.publish("", q, outbound("expired"))
	checkDeadLettered(k, dead.expect("expired"), q)
}

func deadLetterOnExpiration(k *kit) {
	q, dead := withDLX(k, nil)
	msg := outbound("short-lived")
	msg.Expiration = "20"
	k.publish("", q, msg)
	d := dead.expect("short-lived")
	checkDeadLettered(k, d, q)
	if d.Expiration != "" {
		k.t.Errorf("a dead-lettered message kept expiration %q; the broker removes it", d.Expiration)
	}
}

func deadLetterRoutingKey(k *kit) {
	dlx, dlq := k.exchange("direct"), k.queue(nil)
	k.bind(dlq, dlx, "dead")
	q := k.queue(map[string]any{"x-dead-letter-exchange": dlx, "x-dead-letter-routing-key": "dead"})
	k.send("", q, "rerouted")
	if err := k.consume(q, 10).next().Nack(false); err != nil {
		k.t.Fatal(err)
	}
	if d := k.consume(dlq, 10).expect("rerouted"); d.RoutingKey != "dead" {
		k.t.Errorf("dead-lettered routing key %q, want dead", d.RoutingKey)
	}
}

// checkDeadLettered: body, headers and original routing key survive.
func checkDeadLettered(k *kit, d driver.Delivery, source string) {
	k.t.Helper()
	want := outbound(d.MessageID)
	if string(d.Body) != string(want.Body) || d.Headers["tenant"] != "t1" || d.RoutingKey != source {
		k.t.Errorf("dead-lettered delivery = %+v, want body, headers and routing key %q kept", d, source)
	}
}

func expiryAtTheHeadOnly(k *kit) {
	q, dead := withDLX(k, nil)
	long, short := outbound("long"), outbound("short")
	long.Expiration, short.Expiration = "60000", "1"
	k.publish("", q, long)
	k.publish("", q, short)
	published := time.Now()
	k.eventually("the short TTL to pass", func() bool { return time.Since(published) > 5*time.Millisecond })
	if inspector, ok := k.tr.(driver.QueueInspector); ok {
		if n, err := inspector.MessageCount(k.ctx, q); err != nil || n != 2 {
			k.t.Errorf("MessageCount = %d, %v; want 2: the expired message waits behind the live one", n, err)
		}
	}
	in := k.consume(q, 1)
	in.expect("long")
	dead.expect("short")
}

func zeroTTL(k *kit) {
	q, dead := withDLX(k, nil)
	in := k.consume(q, 1)
	now := outbound("now")
	now.Expiration = "0"
	k.publish("", q, now)
	held := in.next() // "now" reached the waiting consumer
	if held.MessageID != "now" {
		k.t.Fatalf("got %q, want now", held.MessageID)
	}
	never := outbound("never")
	never.Expiration = "0"
	k.publish("", q, never) // the consumer is full: it expires
	dead.expect("never")
	_ = held.Ack()
}
