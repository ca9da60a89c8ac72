package acemqtest

import (
	"errors"
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// lifetimeCases pin when the broker creates, refuses and deletes queues and
// exchanges, as memory:// once did not.
var lifetimeCases = []conformanceCase{
	{"declare/a-new-amq-prefixed-queue-is-refused", amqQueueRefused},
	{"declare/an-auto-delete-exchange-goes-with-its-last-binding", autoDeleteExchangeGoes},
	{"declare/an-unused-queue-goes-after-its-x-expires", queueExpires},
	{"declare/a-quorum-queue-must-be-durable-and-shared", quorumProperties},
	{"declare/invalid-length-arguments-are-refused-naming-them", invalidLengthArgs},
	{"limits/max-length-bytes-counts-body-bytes", maxLengthBytes},
}

func amqQueueRefused(k *kit) {
	err := k.tr.DeclareQueue(k.ctx, "amq."+k.name("q"), queueSpec(nil))
	if err == nil || !strings.Contains(err.Error(), "ACCESS_REFUSED") {
		k.t.Errorf("declaring an amq.* queue: %v, want ACCESS_REFUSED", err)
	}
	stillWorks(k)
}

func autoDeleteExchangeGoes(k *kit) {
	kept, gone := k.exchange("direct"), k.exchange("direct")
	q := k.name("bound")
	if err := k.tr.DeclareQueue(k.ctx, q, driver.QueueSpec{AutoDelete: true}); err != nil {
		k.t.Fatal(err)
	}
	k.bind(q, gone, "k")
	in := k.consume(q, 1)
	if err := in.sub.Close(); err != nil {
		k.t.Fatal(err)
	}
	k.eventually("the auto-delete exchange to go with its last binding", func() bool {
		_, err := k.tr.Publish(k.ctx, gone, "k", driver.Outbound{MessageID: k.name("probe")})
		return err != nil && strings.Contains(err.Error(), "NOT_FOUND")
	})
	if _, err := k.tr.Publish(k.ctx, kept, "k", driver.Outbound{MessageID: "kept"}); err != nil {
		k.t.Errorf("an auto-delete exchange never bound went too: %v", err)
	}
}

func queueExpires(k *kit) {
	q := k.name("expiring")
	if err := k.tr.DeclareQueue(k.ctx, q, driver.QueueSpec{Args: map[string]any{"x-expires": 30}}); err != nil {
		k.t.Fatal(err)
	}
	k.eventually("the unused queue to expire", func() bool { return !k.routed("", q) })
}

func quorumProperties(k *kit) {
	cases := map[string]driver.QueueSpec{
		"exclusive-owner": {Durable: true, Exclusive: true},
		"non-durable":     {},
		"auto-delete":     {Durable: true, AutoDelete: true},
	}
	for property, spec := range cases {
		spec.Args = map[string]any{driver.ArgQueueType: "quorum"}
		err := k.tr.DeclareQueue(k.ctx, k.name("quorum"), spec)
		if err == nil || !strings.Contains(err.Error(), "PRECONDITION_FAILED") || !strings.Contains(err.Error(), property) {
			k.t.Errorf("declaring a quorum queue with %+v: %v, want PRECONDITION_FAILED naming %s", spec, err, property)
		}
	}
	stillWorks(k)
}

func invalidLengthArgs(k *kit) {
	for arg, v := range map[string]any{"x-overflow": "nonsense", "x-max-length": "ten", "x-expires": 0} {
		err := k.tr.DeclareQueue(k.ctx, k.name("invalid"), driver.QueueSpec{Args: map[string]any{arg: v}})
		if err == nil || !strings.Contains(err.Error(), "PRECONDITION_FAILED") || !strings.Contains(err.Error(), arg) {
			k.t.Errorf("declaring a queue with %s=%#v: %v, want PRECONDITION_FAILED naming it", arg, v, err)
		}
	}
	stillWorks(k)
}

func maxLengthBytes(k *kit) {
	q := k.queue(map[string]any{"x-max-length-bytes": 10, "x-overflow": "reject-publish"})
	for _, body := range []string{"123456", "1234"} {
		if _, err := k.tr.Publish(k.ctx, "", q, driver.Outbound{MessageID: body, Body: []byte(body)}); err != nil {
			k.t.Fatalf("publishing %d bytes under the limit: %v", len(body), err)
		}
	}
	_, err := k.tr.Publish(k.ctx, "", q, driver.Outbound{MessageID: "1", Body: []byte("1")})
	if !errors.Is(err, acemq.ErrBrokerRefused) {
		k.t.Errorf("publishing the eleventh byte: %v, want ErrBrokerRefused", err)
	}
}
