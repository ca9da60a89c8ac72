package codecbench

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/examples/bookstore/catalog"
	"github.com/acemq/acemq-gen/examples/bookstore/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/cpumeter"
	hamba "github.com/hamba/avro/v2"
)

// The bookstore's payloads, each through its generated JSON codec (the
// AppendJSON and UnmarshalAcemqJSON methods acemq-gen writes, and
// acemq.JSONCodec, which picks them up, with its strict pre-checks), beside
// encoding/json and hamba/avro on the same value:
//
//	go test -run '^$' -bench Bookstore -benchmem ./runtime/codecbench

// bookstorePayload is one benchmarked payload: a value, a fresh destination
// of its type and its Avro schema.
type bookstorePayload struct {
	name   string
	value  any
	fresh  func() any
	schema string
}

func bookstorePayloads() []bookstorePayload {
	note := "for Ada, with love"
	placed := orders.OrderPlaced{
		OrderID: "0b3c3f0e-6c1e-4a53-9f0e-2a8e2b1c9d44", PlacedAt: time.UnixMilli(1_764_000_000_123).UTC(),
		Lines: []orders.OrderLine{
			{Isbn: "978-0134190440", Quantity: 1, PriceCents: 3999},
			{Isbn: "978-1491941195", Quantity: 2, PriceCents: 4550},
			{Isbn: "978-0262033848", Quantity: 1, PriceCents: 9800},
		},
		TotalCents: 22899, GiftNote: &note,
	}
	born := int32(1815)
	added := catalog.BookAdded{
		Isbn: "978-0134190440", Title: "The Go Programming Language & <friends>",
		Authors:    []catalog.Author{{Name: "Alan A. A. Donovan"}, {Name: "Brian W. Kernighan", Born: &born}},
		PriceCents: 3999, Tags: []string{"go", "programming", "classic"},
	}
	return []bookstorePayload{
		{"OrderPlaced", placed, func() any { return new(orders.OrderPlaced) }, placed.AvroSchema()},
		{"BookAdded", added, func() any { return new(catalog.BookAdded) }, added.AvroSchema()},
		{"CancelOrder", orders.CancelOrder{OrderID: placed.OrderID, Reason: "changed my mind"},
			func() any { return new(orders.CancelOrder) }, orders.CancelOrder{}.AvroSchema()},
	}
}

// bookstoreCodec is one way of encoding and decoding a payload.
type bookstoreCodec struct {
	name   string
	encode func(buf []byte, v any) ([]byte, error)
	decode func(body []byte, dst any) error
}

func bookstoreCodecs(tb testing.TB, p bookstorePayload) []bookstoreCodec {
	schema := must(hamba.Parse(p.schema))(tb)
	return []bookstoreCodec{
		{"generated", func(buf []byte, v any) ([]byte, error) {
			return v.(interface{ AppendJSON([]byte) ([]byte, error) }).AppendJSON(buf[:0])
		}, func(body []byte, dst any) error {
			return dst.(interface{ UnmarshalAcemqJSON([]byte) error }).UnmarshalAcemqJSON(body)
		}},
		{"encoding-json", func(_ []byte, v any) ([]byte, error) { return json.Marshal(v) }, json.Unmarshal},
		{"acemq-JSONCodec", func(_ []byte, v any) ([]byte, error) { return acemq.JSONCodec{}.Encode(v) },
			acemq.JSONCodec{}.Decode},
		{"hamba-avro", func(_ []byte, v any) ([]byte, error) { return hamba.Marshal(schema, v) },
			func(body []byte, dst any) error { return hamba.Unmarshal(schema, body, dst) }},
	}
}

func BenchmarkBookstore(b *testing.B) {
	for _, p := range bookstorePayloads() {
		for _, c := range bookstoreCodecs(b, p) {
			body := must(c.encode(nil, p.value))(b)
			buf := make([]byte, 0, 1024)
			b.Run("payload="+p.name+"/op=encode/codec="+c.name, func(b *testing.B) {
				b.ReportAllocs()
				cpu := cpumeter.Start()
				for b.Loop() {
					if _, err := c.encode(buf, p.value); err != nil {
						b.Fatal(err)
					}
				}
				cpu.Report(b)
			})
			b.Run("payload="+p.name+"/op=decode/codec="+c.name, func(b *testing.B) {
				b.ReportAllocs()
				cpu := cpumeter.Start()
				for b.Loop() {
					if err := c.decode(body, p.fresh()); err != nil {
						b.Fatal(err)
					}
				}
				cpu.Report(b)
			})
		}
	}
}
