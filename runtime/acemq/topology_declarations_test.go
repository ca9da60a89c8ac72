package acemq

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestTopologyDeclarationsAreWhatApplyDeclaresSettled(t *testing.T) {
	topo := NewTopology().Exchange("orders", "topic").Queue("orders.cancel").
		DeadLetters("orders.cancel").Binding("orders.cancel", "orders", "order.cancel")
	d, err := topo.Declarations()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Exchanges) != 2 || d.Exchanges[0].Name != "orders" || d.Exchanges[1].Name != DeadLetterExchange {
		t.Fatalf("exchanges %+v; want orders then acemq.dlx", d.Exchanges)
	}
	q := d.Queues[0]
	if q.Name != "orders.cancel" || q.Spec.Args[driver.ArgQueueType] != "quorum" ||
		q.Spec.Args[driver.ArgDeadLetterExchange] != DeadLetterExchange || q.Spec.Args[driver.ArgDeadLetterRoutingKey] != "orders.cancel.dlq" {
		t.Errorf("source queue %+v; want quorum with the dead-letter stamp", q)
	}
	if _, typed := d.Queues[1].Spec.Args[driver.ArgQueueType]; d.Queues[1].Name != "orders.cancel.dlq" || typed {
		t.Errorf("dead-letter queue %+v; want classic with no x-queue-type", d.Queues[1])
	}
	if len(d.Bindings) != 3 || d.Bindings[2] != (DeclaredBinding{Queue: "orders.cancel", Exchange: "orders", Key: "order.cancel"}) {
		t.Errorf("bindings %+v", d.Bindings)
	}
	if _, err := NewTopology().Binding("q", "x", "k").Declarations(); err == nil {
		t.Error("an invalid topology listed its declarations")
	}
}
