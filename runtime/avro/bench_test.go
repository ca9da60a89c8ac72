package avro

import (
	"testing"
	"time"

	hamba "github.com/hamba/avro/v2"
)

// benchSchema is a realistic 10-field event: strings, longs, a logical
// timestamp, an int, a boolean, a double, an optional string and an array.
const benchSchema = `{"type":"record","name":"OrderPlaced","namespace":"com.acme.orders","fields":[
  {"name":"orderId","type":"string"},
  {"name":"customerId","type":"string"},
  {"name":"placedAt","type":{"type":"long","logicalType":"timestamp-millis"}},
  {"name":"totalCents","type":"long"},
  {"name":"currency","type":"string"},
  {"name":"itemCount","type":"int"},
  {"name":"express","type":"boolean"},
  {"name":"discount","type":"double"},
  {"name":"note","type":["null","string"],"default":null},
  {"name":"tags","type":{"type":"array","items":"string"}}]}`

type benchOrder struct {
	OrderID    string    `avro:"orderId"`
	CustomerID string    `avro:"customerId"`
	PlacedAt   time.Time `avro:"placedAt"`
	TotalCents int64     `avro:"totalCents"`
	Currency   string    `avro:"currency"`
	ItemCount  int32     `avro:"itemCount"`
	Express    bool      `avro:"express"`
	Discount   float64   `avro:"discount"`
	Note       *string   `avro:"note"`
	Tags       []string  `avro:"tags"`
}

func newBenchOrder() benchOrder {
	note := "leave at the back door"
	return benchOrder{OrderID: "ord-2026-000042", CustomerID: "cus-7f3a9c", PlacedAt: placed,
		TotalCents: 129_99, Currency: "EUR", ItemCount: 3, Express: true, Discount: 0.15,
		Note: &note, Tags: []string{"web", "promo-spring", "gift"}}
}

// rawHamba is the baseline: a frozen hamba API with the package's limits and
// the same schema, Marshal and Unmarshal.
type rawHamba struct {
	api    hamba.API
	schema hamba.Schema
}

func newRawHamba(b testing.TB) rawHamba {
	return rawHamba{api: newAPI(), schema: must[hamba.Schema](b)(hamba.ParseWithCache(benchSchema, "", &hamba.SchemaCache{}))}
}

func (r rawHamba) Encode(v any) ([]byte, error)    { return r.api.Marshal(r.schema, v) }
func (r rawHamba) Decode(body []byte, v any) error { return r.api.Unmarshal(r.schema, body, v) }

type benchCodec interface {
	Encode(any) ([]byte, error)
	Decode([]byte, any) error
}

// benchCodecs returns the codecs compared, keyed by the name benchstat
// columns show: raw hamba first, so it is the baseline.
func benchCodecs(b *testing.B) []struct {
	name  string
	codec benchCodec
} {
	reg := NewMemoryRegistry()
	return []struct {
		name  string
		codec benchCodec
	}{
		{"raw-hamba", newRawHamba(b)},
		{"fixed", must[*Codec](b)(Of(benchSchema))},
		{"registered", must[*Codec](b)(Registered(reg, "orders-value", benchSchema))},
		{"registered-reader", must[*Codec](b)(Registered(reg, "orders-value", benchSchema, ReaderSchema(benchSchema)))},
	}
}

// BenchmarkAvro encodes and decodes the 10-field record with raw hamba/avro
// and with each mode of Codec. Compare with
// benchstat -col /codec -row /op.
func BenchmarkAvro(b *testing.B) {
	v := newBenchOrder()
	for _, c := range benchCodecs(b) {
		body := must[[]byte](b)(c.codec.Encode(v)) // registers the schema
		b.Run("op=encode/codec="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.codec.Encode(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("op=decode/codec="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out benchOrder
				if err := c.codec.Decode(body, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRegisteredDecodeEvolved decodes a v1 message with a v2 reader
// schema: resolution fills the added field from its default.
func BenchmarkRegisteredDecodeEvolved(b *testing.B) {
	b.ReportAllocs()
	reg := NewMemoryRegistry()
	body := must[[]byte](b)(must[*Codec](b)(Registered(reg, "orders", orderV1)).Encode(orderV1Go{OrderID: "o-1", PlacedAt: placed}))
	c := must[*Codec](b)(Registered(reg, "orders", orderV2, ReaderSchema(orderV2)))
	for b.Loop() {
		var out orderV2Go
		if err := c.Decode(body, &out); err != nil {
			b.Fatal(err)
		}
	}
}
