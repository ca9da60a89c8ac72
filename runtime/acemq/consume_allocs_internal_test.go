package acemq

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// consumeBudget is the most allocations the consumer engine may make for
// one delivery (envelope, decode, handler, settlement, ack) with a codec that
// allocates nothing: the publish path's budget (issue 24).
const consumeBudget = 4

// fixedOrder is the payload the allocation tests decode.
type fixedOrder struct {
	ID    string
	Total int
}

// fixedCodec decodes every body into the same fixedOrder and encodes
// nothing, allocating nothing: the stand-in for a generated codec.
type fixedCodec struct{}

func (fixedCodec) ContentType() string        { return "application/json" }
func (fixedCodec) Encode(any) ([]byte, error) { return []byte("{}"), nil }
func (fixedCodec) CanDecode(ct string) bool   { return ct == "application/json" }
func (fixedCodec) Decode(_ []byte, dst any) error {
	*dst.(*fixedOrder) = fixedOrder{ID: "o", Total: 1}
	return nil
}

// countingAcker counts acks.
type countingAcker struct{ acks atomic.Int64 }

func (a *countingAcker) Ack() error      { a.acks.Add(1); return nil }
func (a *countingAcker) Nack(bool) error { return nil }

// TestConsumeHandlesADeliveryWithinThePublishBudget runs the engine on one
// delivery of a Publisher's wire form (the family's headers and an
// application header) and counts its allocations.
func TestConsumeHandlesADeliveryWithinThePublishBudget(t *testing.T) {
	conn, err := Connect(context.Background(), "memory://consume-allocs-"+t.Name(), WithCodec(fixedCodec{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	cfg, err := buildConsumeConfig(conn, nil)
	if err != nil {
		t.Fatal(err)
	}
	var handled int
	c := newConsumer(context.Background(), conn, "orders", cfg, handlerProcess(cfg.codec, func(_ context.Context, m Message[fixedOrder]) Ack {
		handled += m.Payload.Total
		return Accept()
	}))
	env, _ := NewEnvelope("orders", Header("tenant", "acme"))
	acker := &countingAcker{}
	d := driver.Delivery{Body: []byte(`{"ID":"o","Total":1}`), ContentType: "application/json", RoutingKey: "orders",
		MessageID: env.ID, Headers: env.ToWire(), Acker: acker}
	allocs := testing.AllocsPerRun(200, func() { c.handle(d) })
	if handled == 0 || acker.acks.Load() != int64(handled) {
		t.Fatalf("handled %d, acked %d: the engine did not run the handler and ack", handled, acker.acks.Load())
	}
	t.Logf("%.1f allocations per delivery", allocs)
	if allocs > consumeBudget {
		t.Errorf("the engine made %.1f allocations per delivery, want at most %d", allocs, consumeBudget)
	}
}
