package acemqtest

import (
	"errors"
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

var topologyCases = []behaviourCase{
	{"topology/consume-never-redeclares-its-queue", consumeNeverRedeclares},
	{"topology/consuming-an-undeclared-queue-fails", consumeUndeclaredQueue},
	{"topology/redeclaring-differently-is-precondition-failed-and-the-connection-survives", preconditionFailed},
	{"topology/apply-declares-and-string-describes", topologyApply},
	{"topology/the-broker-dead-letters-an-expired-message-to-the-dlq", brokerDeadLettersExpired},
	{"topology/another-connection-cannot-consume-an-exclusive-queue", exclusiveConsume},
	{"connection/health-is-up-while-connected-and-down-after-close", healthUpThenDown},
}

func consumeNeverRedeclares(k *bkit) {
	q := k.queue(acemq.Transient(), acemq.QueueArg("x-max-length", 100))
	rec := newRecorder(nil)
	k.consume(nil, q, rec.handle)
	k.send(q, order{ID: "classic"})
	rec.expect(k, "classic")
}

func consumeUndeclaredQueue(k *bkit) {
	q := k.name("missing")
	k.remember(q)
	_, err := acemq.Consume(k.ctx, k.conn, q, newRecorder(nil).handle)
	if err == nil || !strings.Contains(err.Error(), "NOT_FOUND") || !strings.Contains(err.Error(), q) {
		k.t.Errorf("consuming an undeclared queue: %v, want NOT_FOUND naming %s", err, q)
	}
	stillServes(k)
}

// stillServes: the default connection publishes and consumes.
func stillServes(k *bkit) {
	k.t.Helper()
	q := k.queue()
	rec := newRecorder(nil)
	k.consume(nil, q, rec.handle)
	k.send(q, order{ID: "still-serving"})
	rec.expect(k, "still-serving")
}

func preconditionFailed(k *bkit) {
	q := k.queue(acemq.QueueArg("x-max-length", 10))
	err := k.conn.DeclareQueue(k.ctx, q, acemq.QueueArg("x-max-length", 20))
	for _, want := range []string{"PRECONDITION_FAILED", q, "x-max-length"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			k.t.Errorf("redeclaring with another x-max-length: %v, want an error containing %q", err, want)
		}
	}
	if err := k.conn.DeclareQueue(k.ctx, q, acemq.QueueArg("x-max-length", 10)); err != nil {
		k.t.Errorf("redeclaring the same way after a refusal: %v", err)
	}
	stillServes(k)
}

func topologyApply(k *bkit) {
	x, q := k.name("x-topic"), k.name("q")
	k.remember(q)
	k.rememberExchange(x)
	topo := acemq.NewTopology().Exchange(x, "topic").Queue(q).Binding(q, x, "orders.*").DeadLetters(q)
	for range 2 {
		if err := topo.Apply(k.ctx, k.conn); err != nil {
			k.t.Fatalf("Apply (twice is idempotent): %v", err)
		}
	}
	s := topo.String()
	for _, want := range []string{"Topology: 2 exchanges, 3 queues, 3 bindings", "declare exchange " + x + " (topic",
		"declare queue " + q + " (", "bind " + x + " -> " + q + " (orders.*)", "declare queue " + acemq.DeadLetterQueue(q)} {
		if !strings.Contains(s, want) {
			k.t.Errorf("String() =\n%s\nwant it to contain %q", s, want)
		}
	}
	rec := newRecorder(always(acemq.Reject(errors.New("no"))))
	k.consume(nil, q, rec.handle)
	if err := acemq.NewPublisher[order](k.conn, x, "orders.placed", acemq.Mandatory[order]()).Send(k.ctx, order{ID: "routed"}); err != nil {
		k.t.Fatalf("publishing through the applied topic exchange: %v", err)
	}
	rec.expect(k, "routed")
	expectSetAside(k, acemq.DeadLetterQueue(q), "routed", "the handler rejected it: no")
}

func brokerDeadLettersExpired(k *bkit) {
	q := k.name("q")
	k.remember(q)
	topo := acemq.NewTopology().Queue(q, acemq.QueueArg(driver.ArgMessageTTL, 20)).DeadLetters(q)
	if err := topo.Apply(k.ctx, k.conn); err != nil {
		k.t.Fatal(err)
	}
	res := k.send(q, order{ID: "stale"})
	d, env := k.pullEnvelope(acemq.DeadLetterQueue(q))
	if env.ID != res.MessageID || d.RoutingKey != acemq.DeadLetterQueue(q) || d.Exchange != acemq.DeadLetterExchange {
		k.t.Errorf("dead letter %s via %q key %q, want %s via %s key %s", env.ID, d.Exchange, d.RoutingKey,
			res.MessageID, acemq.DeadLetterExchange, acemq.DeadLetterQueue(q))
	}
	if d.Headers["x-first-death-reason"] != "expired" || d.Headers["x-first-death-queue"] != q {
		k.t.Errorf("x-first-death reason %#v queue %#v, want expired in %s", d.Headers["x-first-death-reason"], d.Headers["x-first-death-queue"], q)
	}
}

func exclusiveConsume(k *bkit) {
	q := k.name("q")
	k.remember(q)
	if err := k.conn.DeclareQueue(k.ctx, q, acemq.Exclusive()); err != nil {
		k.t.Fatal(err)
	}
	_, err := acemq.Consume(k.ctx, k.open(), q, newRecorder(nil).handle)
	if err == nil || !strings.Contains(err.Error(), "RESOURCE_LOCKED") {
		k.t.Errorf("consuming another connection's exclusive queue: %v, want RESOURCE_LOCKED", err)
	}
	rec := newRecorder(nil)
	k.consume(nil, q, rec.handle)
	k.send(q, order{ID: "owned"})
	rec.expect(k, "owned")
}

func healthUpThenDown(k *bkit) {
	conn := k.open()
	if r := conn.Health(k.ctx); r.Status != acemq.HealthUp {
		k.t.Errorf("Health of a live connection = %+v, want up", r)
	}
	if err := conn.Close(); err != nil {
		k.t.Fatal(err)
	}
	if r := conn.Health(k.ctx); r.Status != acemq.HealthDown {
		k.t.Errorf("Health after Close = %+v, want down", r)
	}
	if r := k.conn.Health(k.ctx); r.Status != acemq.HealthUp {
		k.t.Errorf("Health of another connection to the same broker = %+v, want up", r)
	}
}
