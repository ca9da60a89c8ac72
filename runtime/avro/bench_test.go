package avro

import (
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/internal/benchorder"
	"github.com/acemq/acemq-gen/runtime/internal/cpumeter"
	hamba "github.com/hamba/avro/v2"
)

// benchSchema is the codec benchmarks' 10-field event (benchorder.Schema).
const benchSchema = benchorder.Schema

type benchOrder = benchorder.Order

// flatSchema is benchSchema with its array replaced by a string: a record
// with no array, map or reference, which decodes without the guard walk.
var flatSchema = strings.Replace(benchSchema, `{"type":"array","items":"string"}`, `"string"`, 1)

type flatOrder struct {
	OrderID    string    `avro:"orderId"`
	CustomerID string    `avro:"customerId"`
	PlacedAt   time.Time `avro:"placedAt"`
	TotalCents int64     `avro:"totalCents"`
	Currency   string    `avro:"currency"`
	ItemCount  int32     `avro:"itemCount"`
	Express    bool      `avro:"express"`
	Discount   float64   `avro:"discount"`
	Note       *string   `avro:"note"`
	Tags       string    `avro:"tags"`
}

func newFlatOrder() flatOrder {
	o := newBenchOrder()
	return flatOrder{OrderID: o.OrderID, CustomerID: o.CustomerID, PlacedAt: o.PlacedAt, TotalCents: o.TotalCents,
		Currency: o.Currency, ItemCount: o.ItemCount, Express: o.Express, Discount: o.Discount, Note: o.Note, Tags: "web,promo-spring,gift"}
}

func newBenchOrder() benchOrder { return benchorder.New() }

// rawHamba is the baseline: a frozen hamba API with the package's limits and
// the same schema, Marshal and Unmarshal.
type rawHamba struct {
	api    hamba.API
	schema hamba.Schema
}

func newRawHamba(b testing.TB, schema string) rawHamba {
	return rawHamba{api: newAPI(), schema: must[hamba.Schema](b)(hamba.ParseWithCache(schema, "", &hamba.SchemaCache{}))}
}

func (r rawHamba) Encode(v any) ([]byte, error)    { return r.api.Marshal(r.schema, v) }
func (r rawHamba) Decode(body []byte, v any) error { return r.api.Unmarshal(r.schema, body, v) }

type benchCodec interface {
	Encode(any) ([]byte, error)
	Decode([]byte, any) error
}

// benchCodecs returns the codecs compared over schema, keyed by the name
// benchstat columns show: raw hamba first, so it is the baseline.
func benchCodecs(b *testing.B, schema string) []struct {
	name  string
	codec benchCodec
} {
	reg := NewMemoryRegistry()
	return []struct {
		name  string
		codec benchCodec
	}{
		{"raw-hamba", newRawHamba(b, schema)},
		{"fixed", must[*Codec](b)(Of(schema))},
		{"registered", must[*Codec](b)(Registered(reg, "orders-value", schema))},
		{"registered-reader", must[*Codec](b)(Registered(reg, "orders-value", schema, ReaderSchema(schema)))},
	}
}

// BenchmarkAvro encodes and decodes the 10-field record with raw hamba/avro
// and with each mode of Codec, with its array (record=array: the guard walk
// runs) and with the array replaced by a string (record=flat: no walk).
// Compare with benchstat -col /codec -row /record,/op.
func BenchmarkAvro(b *testing.B) {
	benchModes(b, "record=array", benchSchema, newBenchOrder(), func() any { return new(benchOrder) })
	benchModes(b, "record=flat", flatSchema, newFlatOrder(), func() any { return new(flatOrder) })
}

func benchModes(b *testing.B, record, schema string, v any, out func() any) {
	for _, c := range benchCodecs(b, schema) {
		body := must[[]byte](b)(c.codec.Encode(v)) // registers the schema
		b.Run(record+"/op=encode/codec="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpumeter.Start()
			for b.Loop() {
				if _, err := c.codec.Encode(v); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(b)
		})
		b.Run(record+"/op=decode/codec="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpumeter.Start()
			for b.Loop() {
				if err := c.codec.Decode(body, out()); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(b)
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

// BenchmarkGuardWalk is the guard walk alone over the record's body: the
// share of decode the package adds to hamba for a schema with an array.
func BenchmarkGuardWalk(b *testing.B) {
	c := must[*Codec](b)(Of(benchSchema))
	body := must[[]byte](b)(c.Encode(newBenchOrder()))
	b.ReportAllocs()
	cpu := cpumeter.Start()
	for b.Loop() {
		if err := guard(c.guard, body); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report(b)
}
