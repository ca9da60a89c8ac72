package avro

import (
	"bytes"
	"reflect"
	"testing"
)

const tagSchema = `{"type":"record","name":"OrderPlaced","fields":[
	{"name":"orderId","type":"string"},
	{"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line","fields":[{"name":"sku","type":"string"}]}}}]}`

// The seed's Go types carry json tags only.
type jsonOrder struct {
	OrderID string     `json:"orderId"`
	Lines   []jsonLine `json:"lines,omitempty"`
}

type jsonLine struct {
	Sku string `json:"sku"`
}

type avroOrder struct {
	OrderID string     `avro:"orderId" json:"order_id"`
	Lines   []avroLine `avro:"lines"`
}

type avroLine struct {
	Sku string `avro:"sku"`
}

func TestAStructTaggedOnlyForJSONTravelsUnderItsJSONNames(t *testing.T) {
	reg := NewMemoryRegistry()
	for name, build := range map[string]func() (*Codec, error){
		"Of":         func() (*Codec, error) { return Of(tagSchema) },
		"Registered": func() (*Codec, error) { return Registered(reg, "order.placed", tagSchema) },
	} {
		c, err := build()
		if err != nil {
			t.Fatal(err)
		}
		in := jsonOrder{OrderID: "o-1", Lines: []jsonLine{{Sku: "b-7"}}}
		body, err := c.Encode(in)
		if err != nil {
			t.Fatalf("%s: encode: %v", name, err)
		}
		var out jsonOrder
		if err := c.Decode(body, &out); err != nil {
			t.Fatalf("%s: decode: %v", name, err)
		}
		if out.OrderID != "o-1" || len(out.Lines) != 1 || out.Lines[0].Sku != "b-7" {
			t.Fatalf("%s: decoded %+v", name, out)
		}
	}
}

func TestJSONTaggedAndAvroTaggedStructsWriteTheSameBytes(t *testing.T) {
	c, err := Of(tagSchema)
	if err != nil {
		t.Fatal(err)
	}
	byJSON, err := c.Encode(&jsonOrder{OrderID: "o-1", Lines: []jsonLine{{Sku: "b-7"}}})
	if err != nil {
		t.Fatal(err)
	}
	byAvro, err := c.Encode(avroOrder{OrderID: "o-1", Lines: []avroLine{{Sku: "b-7"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(byJSON, byAvro) {
		t.Fatalf("json-tagged wrote %x, avro-tagged %x", byJSON, byAvro)
	}
}

func TestAvroTagsWinOverJSONTagsAnywhereInAType(t *testing.T) {
	for _, v := range []any{avroOrder{}, &avroOrder{}, []avroOrder{}, map[string]avroLine{}} {
		if k := tagKeyOf(typeOf(v)); k != tagAvro {
			t.Errorf("%T: tag key %q, want avro", v, k)
		}
	}
	for _, v := range []any{jsonOrder{}, &jsonOrder{}, map[string]*jsonLine{}} {
		if k := tagKeyOf(typeOf(v)); k != tagJSON {
			t.Errorf("%T: tag key %q, want json", v, k)
		}
	}
	if k := tagKeyOf(typeOf(map[string]any{})); k != tagAvro {
		t.Errorf("a map of any: tag key %q, want avro", k)
	}
}

func typeOf(v any) reflect.Type { return reflect.TypeOf(v) }
