package avro

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
	"github.com/acemq/acemq-gen/runtime/internal/codecbound"
)

// panickingRegistry is a registry that panics with "boom" in Register and
// ByID while panicking is set.
type panickingRegistry struct {
	Registry
	panicking atomic.Bool
}

func (r *panickingRegistry) Register(ctx context.Context, s, f, d string) (SchemaDefinition, error) {
	if r.panicking.Load() {
		panic("boom")
	}
	return r.Registry.Register(ctx, s, f, d)
}

func (r *panickingRegistry) ByID(ctx context.Context, id int) (SchemaDefinition, error) {
	if r.panicking.Load() {
		panic("boom")
	}
	return r.Registry.ByID(ctx, id)
}

func TestPanickingRegistryIsAnEncodeErrorAndTheNextEncodeAsksAgain(t *testing.T) {
	reg := &panickingRegistry{Registry: NewMemoryRegistry()}
	reg.panicking.Store(true)
	c := must[*Codec](t)(Registered(reg, "orders", orderV1))
	_, err := c.Encode(orderV1Go{OrderID: "o-1", PlacedAt: placed})
	const want = `acemq: registering the schema of subject "orders": the schema registry panicked: boom`
	if err == nil || err.Error() != want {
		t.Fatalf("Encode: %v, want %q", err, want)
	}
	reg.panicking.Store(false)
	if _, err := c.Encode(orderV1Go{OrderID: "o-1", PlacedAt: placed}); err != nil {
		t.Fatalf("Encode once the registry recovered: %v", err)
	}
}

func TestPanickingRegistryIsAFatalDecodeErrorThatIsNotRemembered(t *testing.T) {
	reg := &panickingRegistry{Registry: NewMemoryRegistry()}
	writer := must[*Codec](t)(Registered(reg, "orders", orderV1))
	body := must[[]byte](t)(writer.Encode(orderV1Go{OrderID: "o-1", PlacedAt: placed}))
	reader := must[*Codec](t)(Registered(reg, "orders", orderV1))
	reg.panicking.Store(true)
	var out orderV1Go
	err := reader.Decode(body, &out)
	const want = "acemq: looking up schema 1: the schema registry panicked: boom"
	if err == nil || err.Error() != want || !acemq.IsFatal(err) {
		t.Fatalf("Decode: %v (fatal %v), want the fatal error %q", err, acemq.IsFatal(err), want)
	}
	reg.panicking.Store(false)
	if err := reader.Decode(body, &out); err != nil || out.OrderID != "o-1" {
		t.Fatalf("Decode once the registry recovered: %+v, %v", out, err)
	}
}

func TestPanickingRegistryParksTheMessageItCouldNotLookUp(t *testing.T) {
	reg := &panickingRegistry{Registry: NewMemoryRegistry()}
	conn, _ := acemqtest.Connect(t)
	if err := conn.DeclareQueue(t.Context(), "orders"); err != nil {
		t.Fatal(err)
	}
	codec := must[*Codec](t)(Registered(reg, "orders", orderV1))
	if err := acemq.NewPublisher(conn, "", "orders", acemq.PublishWith[orderV1Go](codec)).Send(t.Context(), orderV1Go{OrderID: "o-1", PlacedAt: placed}); err != nil {
		t.Fatal(err)
	}
	reg.panicking.Store(true)
	c, err := acemq.Consume(t.Context(), conn, "orders", func(context.Context, acemq.Message[orderV1Go]) acemq.Ack {
		return acemq.Accept()
	}, acemq.ConsumeWith(must[*Codec](t)(Registered(reg, "orders", orderV1))))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	codecbound.Parked(t, conn, "orders", "could not be decoded: acemq: looking up schema 1: the schema registry panicked: boom")
}
