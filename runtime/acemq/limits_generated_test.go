package acemq_test

import (
	"testing"

	"github.com/acemq/acemq-gen/examples/bookstore/catalog"
	"github.com/acemq/acemq-gen/examples/bookstore/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/membound"
)

// FuzzJSONDecodeGenerated is FuzzJSONDecode for payloads acemq-gen
// generated, which JSONCodec decodes through their UnmarshalAcemqJSON:
// no panic, every failure fatal, and no more allocation than a small
// multiple of the body.
func FuzzJSONDecodeGenerated(f *testing.F) {
	for _, s := range []string{
		`{"orderId":"o-1","placedAt":"2026-12-04T00:00:00.123Z","lines":[{"isbn":"i","quantity":1,"priceCents":5}],"totalCents":5,"giftNote":null}`,
		`{"isbn":"i","title":"t\u00e9","authors":[{"name":"a","born":1815}],"priceCents":1,"tags":["x"]}`,
		`null`, `{}`, `{"lines":[[[[[[`, `{"orderId":"a","orderId":"b"}`, `{"lines":[{}],"LINES":null}`, `{"tags":["\ud800"]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		membound.Check(t, len(body), 64, func() {
			var placed orders.OrderPlaced
			if err := (acemq.JSONCodec{}).Decode(body, &placed); err != nil && !acemq.IsFatal(err) {
				t.Fatalf("non-fatal error %v", err)
			}
			var added catalog.BookAdded
			if err := (acemq.JSONCodec{}).Decode(body, &added); err != nil && !acemq.IsFatal(err) {
				t.Fatalf("non-fatal error %v", err)
			}
		})
	})
}
