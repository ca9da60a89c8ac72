package acemqtest

import (
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

var declareCases = []conformanceCase{
	{"declare/same-declaration-again-is-accepted", redeclareSame},
	{"declare/queue-with-different-arguments-is-refused-naming-both", redeclareQueueDifferent},
	{"declare/queue-with-different-durability-is-refused", redeclareQueueDurability},
	{"declare/exchange-of-another-kind-is-refused", redeclareExchangeKind},
	{"declare/binding-to-an-undeclared-exchange-fails", bindUndeclared},
	{"declare/binding-to-the-default-exchange-is-refused", bindDefault},
	{"declare/exchange-of-an-unknown-kind-is-refused", unknownKind},
	{"declare/auto-delete-queue-goes-with-its-last-consumer", autoDeleteGoes},
	{"publish/to-an-undeclared-exchange-fails-and-the-transport-recovers", publishUndeclared},
}

func redeclareSame(k *kit) {
	q := k.queue(map[string]any{"x-message-ttl": 1000})
	if err := k.tr.DeclareQueue(k.ctx, q, queueSpec(map[string]any{"x-message-ttl": 1000})); err != nil {
		k.t.Errorf("redeclaring with the same arguments: %v", err)
	}
}

func redeclareQueueDifferent(k *kit) {
	q := k.queue(map[string]any{"x-message-ttl": 1000})
	err := k.tr.DeclareQueue(k.ctx, q, queueSpec(map[string]any{"x-message-ttl": 2000}))
	expectRefusal(k, err, q, "x-message-ttl")
	stillWorks(k)
}

func redeclareQueueDurability(k *kit) {
	q := k.queue(nil)
	spec := queueSpec(nil)
	spec.Durable = true
	expectRefusal(k, k.tr.DeclareQueue(k.ctx, q, spec), q, "durable")
	stillWorks(k)
}

func redeclareExchangeKind(k *kit) {
	x := k.exchange("direct")
	err := k.tr.DeclareExchange(k.ctx, x, driver.ExchangeSpec{Kind: "topic", AutoDelete: true})
	expectRefusal(k, err, x, "type")
	stillWorks(k)
}

func bindUndeclared(k *kit) {
	if err := k.tr.Bind(k.ctx, k.queue(nil), k.name("undeclared"), "k"); err == nil {
		k.t.Error("binding to an undeclared exchange succeeded")
	}
}

// expectRefusal: a PRECONDITION_FAILED naming the queue or exchange and the argument.
func expectRefusal(k *kit, err error, name, arg string) {
	k.t.Helper()
	for _, want := range []string{"PRECONDITION_FAILED", name, arg} {
		if err == nil || !strings.Contains(err.Error(), want) {
			k.t.Errorf("redeclaration error = %v, want it to contain %q", err, want)
		}
	}
}

// stillWorks: after a refused declaration the transport keeps working.
func stillWorks(k *kit) {
	k.t.Helper()
	q := k.queue(nil)
	k.send("", q, "still-works")
	k.consume(q, 10).expect("still-works")
}

func bindDefault(k *kit) {
	if err := k.tr.Bind(k.ctx, k.queue(nil), "", "k"); err == nil || !strings.Contains(err.Error(), "ACCESS_REFUSED") {
		k.t.Errorf("binding to the default exchange: %v, want ACCESS_REFUSED", err)
	}
}

func unknownKind(k *kit) {
	err := k.tr.DeclareExchange(k.ctx, k.name("x"), driver.ExchangeSpec{Kind: "nonsense"})
	if err == nil || !strings.Contains(err.Error(), "nonsense") {
		k.t.Errorf("declaring an exchange of kind nonsense: %v, want an error naming the kind", err)
	}
}

func autoDeleteGoes(k *kit) {
	q := k.name("auto")
	if err := k.tr.DeclareQueue(k.ctx, q, driver.QueueSpec{AutoDelete: true}); err != nil {
		k.t.Fatal(err)
	}
	in := k.consume(q, 1)
	if err := in.sub.Cancel(); err != nil {
		k.t.Fatal(err)
	}
	k.eventually("the auto-delete queue to go", func() bool { return !k.routed("", q) })
}

func publishUndeclared(k *kit) {
	_, err := k.tr.Publish(k.ctx, k.name("undeclared"), "k", driver.Outbound{MessageID: "m"})
	if err == nil || !strings.Contains(err.Error(), "NOT_FOUND") {
		k.t.Errorf("publishing to an undeclared exchange: %v, want NOT_FOUND", err)
	}
	stillWorks(k)
}
