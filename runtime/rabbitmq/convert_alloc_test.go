package rabbitmq

import (
	"strings"
	"testing"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// familyTable is a publisher's wire table: the family's headers and an
// application header, every value in the form amqp091-go writes.
func familyTable(t *testing.T) map[string]any {
	t.Helper()
	env, err := acemq.NewEnvelope("orders", acemq.Header("tenant", "acme"))
	if err != nil {
		t.Fatal(err)
	}
	return env.ToWire()
}

// The family's headers are converted once on the way out: a publisher's
// table goes to amqp091-go as it is, without a copy or an allocation.
func TestAPublishersTableGoesToTheWireWithoutACopy(t *testing.T) {
	h := familyTable(t)
	pm, err := toPublishing(driver.Outbound{Body: []byte("{}"), MessageID: "m", Headers: h})
	if err != nil {
		t.Fatal(err)
	}
	pm.Headers["probe"] = "x"
	if h["probe"] != "x" {
		t.Error("toPublishing copied a table already in amqp091-go's form")
	}
	delete(h, "probe")
	if n := testing.AllocsPerRun(100, func() { _, _ = toTable(h) }); n != 0 {
		t.Errorf("toTable of a publisher's table allocates %v times, want 0", n)
	}
}

// A received table with nothing nested is the delivery's headers as it is;
// one with a nested table is still converted, nested tables becoming maps.
func TestAReceivedFlatTableIsTheDeliverysHeadersWithoutACopy(t *testing.T) {
	tab := amqp.Table(familyTable(t))
	if n := testing.AllocsPerRun(100, func() { _ = fromTable(tab) }); n != 0 {
		t.Errorf("fromTable of a flat table allocates %v times, want 0", n)
	}
	nested := amqp.Table{"m": amqp.Table{"k": int64(1)}, "l": []any{amqp.Table{"j": "v"}}}
	back := fromTable(nested)
	if _, ok := back["m"].(map[string]any); !ok {
		t.Errorf("nested table came back as %T", back["m"])
	}
	if l, ok := back["l"].([]any); !ok || len(l) != 1 {
		t.Errorf("list came back as %#v", back["l"])
	} else if _, ok := l[0].(map[string]any); !ok {
		t.Errorf("table in a list came back as %T", l[0])
	}
	if fromTable(nil) == nil {
		t.Error("fromTable(nil) is nil, want an empty map")
	}
}

// fakeChannel records what a delivery's acker settles on it.
type fakeChannel struct{ acked, nacked []uint64 }

func (f *fakeChannel) Ack(tag uint64, _ bool) error { f.acked = append(f.acked, tag); return nil }
func (f *fakeChannel) Nack(tag uint64, _, _ bool) error {
	f.nacked = append(f.nacked, tag)
	return nil
}
func (f *fakeChannel) Reject(uint64, bool) error { return nil }

// A delivery's acker keeps only its channel, tag and id (not the whole
// amqp.Delivery) and settles on that channel with that tag.
func TestADeliverysAckerSettlesOnItsChannelWithItsTag(t *testing.T) {
	ch := &fakeChannel{}
	d := toDelivery(amqp.Delivery{Acknowledger: ch, DeliveryTag: 7, MessageId: "m-7"})
	if err := d.Ack(); err != nil || len(ch.acked) != 1 || ch.acked[0] != 7 {
		t.Errorf("Ack = %v, acked %v; want tag 7", err, ch.acked)
	}
	if err := d.Nack(true); err != nil || len(ch.nacked) != 1 || ch.nacked[0] != 7 {
		t.Errorf("Nack = %v, nacked %v; want tag 7", err, ch.nacked)
	}
	if err := toDelivery(amqp.Delivery{MessageId: "m-0"}).Ack(); err == nil || !strings.Contains(err.Error(), "m-0") {
		t.Errorf("Ack without a channel = %v, want an error naming the message", err)
	}
}
