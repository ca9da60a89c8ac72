package avro

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

const orderV1 = `{"type":"record","name":"Order","namespace":"com.acme","fields":[
  {"name":"orderId","type":"string"},
  {"name":"placedAt","type":{"type":"long","logicalType":"timestamp-millis"}}]}`

// orderV2 adds a field with a default and is a superset of v1.
const orderV2 = `{"type":"record","name":"Order","namespace":"com.acme","fields":[
  {"name":"orderId","type":"string"},
  {"name":"placedAt","type":{"type":"long","logicalType":"timestamp-millis"}},
  {"name":"visibility","type":"string","default":"public"}]}`

type orderV1Go struct {
	OrderID  string    `avro:"orderId"`
	PlacedAt time.Time `avro:"placedAt"`
}

type orderV2Go struct {
	OrderID    string    `avro:"orderId"`
	PlacedAt   time.Time `avro:"placedAt"`
	Visibility string    `avro:"visibility"`
}

var placed = time.Date(2026, 3, 4, 5, 6, 7, 8e6, time.UTC)

func TestOfRoundTripsAStructWithATimestamp(t *testing.T) {
	c := must[*Codec](t)(Of(orderV1))
	body := must[[]byte](t)(c.Encode(orderV1Go{OrderID: "o-1", PlacedAt: placed}))
	var out orderV1Go
	if err := c.Decode(body, &out); err != nil {
		t.Fatal(err)
	}
	if out.OrderID != "o-1" || !out.PlacedAt.Equal(placed) {
		t.Fatalf("round trip gave %+v", out)
	}
	if c.Schema() != orderV1 {
		t.Fatal("Schema() is not the schema given")
	}
}

func TestRegisteredFramesWithTheRegisteredIDAndRegistersOnce(t *testing.T) {
	reg := &countingRegistry{Registry: NewMemoryRegistry()}
	c := must[*Codec](t)(Registered(reg, "orders-order.placed", orderV1))
	var bodies [][]byte
	for range 3 {
		bodies = append(bodies, must[[]byte](t)(c.Encode(orderV1Go{OrderID: "o-1", PlacedAt: placed})))
	}
	if reg.registers != 1 {
		t.Fatalf("registered %d times, want 1", reg.registers)
	}
	if !bytes.Equal(bodies[0][:5], []byte{0, 0, 0, 0, 1}) {
		t.Fatalf("frame % x, want 00 00000001", bodies[0][:5])
	}
	if id := must[int](t)(c.SchemaID(t.Context())); id != 1 {
		t.Fatalf("SchemaID = %d", id)
	}
	var out orderV1Go
	if err := c.Decode(bodies[2], &out); err != nil || out.OrderID != "o-1" {
		t.Fatalf("decoded %+v, %v", out, err)
	}
}

func TestReaderSchemaFillsDefaultsAndSkipsUnknownFields(t *testing.T) {
	reg := NewMemoryRegistry()
	oldWriter := must[*Codec](t)(Registered(reg, "orders", orderV1))
	newWriter := must[*Codec](t)(Registered(reg, "orders", orderV2))
	fromOld := must[[]byte](t)(oldWriter.Encode(orderV1Go{OrderID: "old", PlacedAt: placed}))
	fromNew := must[[]byte](t)(newWriter.Encode(orderV2Go{OrderID: "new", PlacedAt: placed, Visibility: "private"}))

	v2reader := must[*Codec](t)(Registered(reg, "orders", orderV2, ReaderSchema(orderV2)))
	var filled orderV2Go
	if err := v2reader.Decode(fromOld, &filled); err != nil || filled.Visibility != "public" || filled.OrderID != "old" {
		t.Fatalf("v1 message read as v2: %+v, %v", filled, err)
	}
	v1reader := must[*Codec](t)(Registered(reg, "orders", orderV1, ReaderSchema(orderV1)))
	var skipped map[string]any
	if err := v1reader.Decode(fromNew, &skipped); err != nil {
		t.Fatal(err)
	}
	if _, ok := skipped["visibility"]; ok || skipped["orderId"] != "new" {
		t.Fatalf("v2 message read as v1: %v", skipped)
	}
}

func TestWithoutReaderSchemaAMessageKeepsItsWriterShape(t *testing.T) {
	reg := NewMemoryRegistry()
	fromOld := must[[]byte](t)(must[*Codec](t)(Registered(reg, "orders", orderV1)).Encode(orderV1Go{OrderID: "old"}))
	var m map[string]any
	if err := must[*Codec](t)(Registered(reg, "orders", orderV2)).Decode(fromOld, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["visibility"]; ok {
		t.Fatalf("a field the writer never sent arrived: %v", m)
	}
}

func TestReaderSchemaLeavesTheWireBytesUnchanged(t *testing.T) {
	reg := NewMemoryRegistry()
	plain := must[*Codec](t)(Registered(reg, "orders", orderV2))
	resolving := must[*Codec](t)(Registered(reg, "orders", orderV2, ReaderSchema(orderV1)))
	v := orderV2Go{OrderID: "o", PlacedAt: placed, Visibility: "x"}
	if a, b := must[[]byte](t)(plain.Encode(v)), must[[]byte](t)(resolving.Encode(v)); !bytes.Equal(a, b) {
		t.Fatalf("with ReaderSchema % x, without % x", b, a)
	}
}

func TestResolutionIsComputedOncePerWriterID(t *testing.T) {
	reg := &countingRegistry{Registry: NewMemoryRegistry()}
	w1 := must[[]byte](t)(must[*Codec](t)(Registered(reg, "orders", orderV1)).Encode(orderV1Go{OrderID: "a"}))
	w2 := must[[]byte](t)(must[*Codec](t)(Registered(reg, "orders", orderV2)).Encode(orderV2Go{OrderID: "b"}))
	reader := must[*Codec](t)(Registered(reg, "orders", orderV2, ReaderSchema(orderV2)))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, body := range [][]byte{w1, w2, w1} {
				var out orderV2Go
				if err := reader.Decode(body, &out); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if reg.byID[1] != 1 || reg.byID[2] != 1 {
		t.Fatalf("ByID calls per id: %v, want one each", reg.byID)
	}
}

func TestUnresolvableWriterIsFatalPrintingBothSchemas(t *testing.T) {
	incompatible := `{"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"orderId","type":"int"}]}`
	reg := newFixedRegistry(map[int]string{9: incompatible})
	c := must[*Codec](t)(Registered(reg, "orders", orderV1, ReaderSchema(orderV1)))
	body := appendFrame(nil, 9, []byte{2})
	var out orderV1Go
	err := c.Decode(body, &out)
	if !acemq.IsFatal(err) || !strings.HasPrefix(err.Error(), "acemq: schema 9 cannot be read as this consumer's schema: ") ||
		!strings.Contains(err.Error(), "\n  written with: "+incompatible+"\n  read as: "+orderV1) {
		t.Fatalf("error %v", err)
	}
	_ = c.Decode(body, &out)
	if reg.count(9) != 1 {
		t.Fatalf("looked schema 9 up %d times; a fatal resolution is remembered", reg.count(9))
	}
}

func TestUnusableSchemasAreRefusedAtConstruction(t *testing.T) {
	reg := NewMemoryRegistry()
	_, err := Registered(reg, "orders", orderV1, ReaderSchema(`{"type":"record"`))
	if err == nil || !strings.HasPrefix(err.Error(), "acemq: this is not a usable Avro reader schema: ") {
		t.Errorf("bad reader schema: %v", err)
	}
	if _, err := Of(`{"type":"nope"}`); err == nil {
		t.Error("Of accepted a bad schema")
	}
	if _, err := Registered(nil, "s", orderV1); err == nil {
		t.Error("Registered accepted a nil registry")
	}
	if _, err := Registered(reg, "", orderV1); err == nil {
		t.Error("Registered accepted an empty subject")
	}
}

func TestRegisteredRefusesAnUnframedBodyWithTheFamilyWording(t *testing.T) {
	c := must[*Codec](t)(Registered(NewMemoryRegistry(), "orders", orderV1))
	unframed := must[[]byte](t)(must[*Codec](t)(Of(orderV1)).Encode(orderV1Go{OrderID: "o"}))
	for _, body := range [][]byte{unframed, {0, 0, 1}, nil} {
		var out orderV1Go
		err := c.Decode(body, &out)
		if !acemq.IsFatal(err) || err.Error() != "acemq: this message carries no schema identifier, so it was written by a codec built with Of rather than Registered" {
			t.Errorf("Decode(% x): %v", body, err)
		}
	}
}

func TestUnknownSchemaIDIsFatalButAnUnreachableRegistryIsNot(t *testing.T) {
	c := must[*Codec](t)(Registered(NewMemoryRegistry(), "orders", orderV1))
	var out orderV1Go
	if err := c.Decode(appendFrame(nil, 42, []byte{0}), &out); !acemq.IsFatal(err) || !errors.Is(err, ErrSchemaNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
	down := &flakyRegistry{Registry: NewMemoryRegistry(), fail: true}
	c = must[*Codec](t)(Registered(down, "orders", orderV1))
	if _, err := c.Encode(orderV1Go{}); err == nil || acemq.IsFatal(err) {
		t.Fatalf("registry down on encode: %v", err)
	}
	down.fail = false
	if _, err := c.Encode(orderV1Go{}); err != nil {
		t.Fatalf("a failed registration was remembered: %v", err)
	}
}

type flakyRegistry struct {
	Registry
	fail bool
}

func (f *flakyRegistry) Register(ctx context.Context, s, fm, d string) (SchemaDefinition, error) {
	if f.fail {
		return SchemaDefinition{}, errors.New("connection refused")
	}
	return f.Registry.Register(ctx, s, fm, d)
}

func TestMalformedBodyAndWrongPayloadAreFatal(t *testing.T) {
	c := must[*Codec](t)(Of(orderV1))
	var out orderV1Go
	whole := must[[]byte](t)(c.Encode(orderV1Go{OrderID: "o-1", PlacedAt: placed}))
	for name, body := range map[string][]byte{"empty": {}, "cut varint": {0xff}, "cut": whole[:len(whole)-1],
		"trailing": append(whole, 0), "framed": appendFrame(nil, 1, whole)} {
		if err := c.Decode(body, &out); !acemq.IsFatal(err) {
			t.Errorf("%s body: %v", name, err)
		}
	}
	if err := c.Decode(whole, nil); !acemq.IsFatal(err) {
		t.Errorf("nil destination: %v", err)
	}
	if _, err := c.Encode(42); !acemq.IsFatal(err) {
		t.Errorf("wrong payload: %v", err)
	}
	if _, err := c.SchemaID(t.Context()); !errors.Is(err, errNoID) {
		t.Errorf("Of SchemaID: %v", err)
	}
}

func TestTwoCodecsWithTheSameFullNameDoNotInterfere(t *testing.T) {
	a := must[*Codec](t)(Of(`{"type":"record","name":"com.acme.X","fields":[{"name":"a","type":"string"}]}`))
	b := must[*Codec](t)(Of(`{"type":"record","name":"com.acme.X","fields":[{"name":"b","type":"long"}]}`))
	bodyA := must[[]byte](t)(a.Encode(map[string]any{"a": "hi"}))
	bodyB := must[[]byte](t)(b.Encode(map[string]any{"b": int64(7)}))
	var ma, mb map[string]any
	if err := a.Decode(bodyA, &ma); err != nil || ma["a"] != "hi" {
		t.Fatalf("a: %v %v", ma, err)
	}
	if err := b.Decode(bodyB, &mb); err != nil || mb["b"] != int64(7) {
		t.Fatalf("b: %v %v", mb, err)
	}
}

func TestContentTypeGatingBothWays(t *testing.T) {
	fixed := must[*Codec](t)(Of(orderV1))
	framed := must[*Codec](t)(Registered(NewMemoryRegistry(), "orders", orderV1))
	cases := []struct {
		ct            string
		fixed, framed bool
	}{
		{"avro/binary", true, false},
		{"application/vnd.acemq.avro", false, true},
		{"application/avro", true, true},
		{"application/avro-binary", true, true},
		{"application/vnd.acme.order+avro", true, true},
		{"AVRO/BINARY", true, false},
		{"", false, false},
		{"application/json", false, false},
	}
	for _, c := range cases {
		if fixed.CanDecode(c.ct) != c.fixed || framed.CanDecode(c.ct) != c.framed {
			t.Errorf("%q: Of %v Registered %v, want %v %v", c.ct, fixed.CanDecode(c.ct), framed.CanDecode(c.ct), c.fixed, c.framed)
		}
	}
	if fixed.ContentType() != "avro/binary" || framed.ContentType() != "application/vnd.acemq.avro" {
		t.Fatalf("content types %q %q", fixed.ContentType(), framed.ContentType())
	}
}

func TestEncodeTakesAPointerAndDecodeFillsAnInterface(t *testing.T) {
	c := must[*Codec](t)(Of(orderV1))
	body := must[[]byte](t)(c.Encode(&orderV1Go{OrderID: "p", PlacedAt: placed}))
	var out any
	if err := c.Decode(body, &out); err != nil {
		t.Fatal(err)
	}
	if m, ok := out.(map[string]any); !ok || m["orderId"] != "p" {
		t.Fatalf("decoded %#v", out)
	}
}

func TestWrappedRegistryErrorsCarryThePrefixOnce(t *testing.T) {
	c := must[*Codec](t)(Registered(NewMemoryRegistry(), "orders", orderV1))
	var out orderV1Go
	err := c.Decode(appendFrame(nil, 42, []byte{0}), &out)
	want := "acemq: this message names schema 42, which the registry does not hold: no such schema: id 42"
	if err == nil || err.Error() != want || !errors.Is(err, ErrSchemaNotFound) {
		t.Fatalf("error %q, want %q", err, want)
	}
}
