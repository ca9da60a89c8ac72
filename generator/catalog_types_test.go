package generator

import (
	"strings"
	"testing"
)

const catalogTypesContract = `acemq: 1
domain: shop
doc: The shop.
types:
  Money:
    doc: An amount.
    fields:
      cents: long
      currency: {type: string, default: EUR}
  Colour:
    enum: [red, green]
    default: red
events:
  OrderPlaced:
    doc: A customer ordered.
    deprecated: use OrderPlacedV2
    fields:
      total: Money
      lines: [Money]
      colour: Colour?
      tags: {map: string}
rpc:
  GetOrder:
    doc: Where an order is.
    request: {fields: {orderId: uuid}}
    response: {fields: {total: Money}}
`

func TestCatalogContentsHoldsDocsTypesAndPayloads(t *testing.T) {
	entries, domains, ds := CatalogContents([]Source{{Path: "shop.acemq.yaml", Data: []byte(catalogTypesContract)}})
	if ds.HasErrors() || len(entries) != 2 || len(domains) != 1 {
		t.Fatalf("CatalogContents = %d entries, %d domains, %v", len(entries), len(domains), ds)
	}
	d := domains[0]
	if d.Name != "shop" || d.Doc != "The shop." || len(d.Types) != 2 || d.Types[0].Name != "Money" || d.Types[0].Shape != "record" ||
		d.Types[0].Doc != "An amount." || d.Types[1].Shape != "enum" || d.Types[1].EnumDefault != "red" {
		t.Errorf("domain %+v", d)
	}
	ev := entries[0]
	if ev.Doc != "A customer ordered." || ev.Deprecated != "use OrderPlacedV2" || ev.ContentType != "application/json" || ev.Payload == nil {
		t.Fatalf("event %+v", ev)
	}
	f := ev.Payload.Fields
	if len(f) != 4 || f[0].Type.Kind != "named" || f[0].Type.Domain != "shop" || f[0].Type.Name != "Money" ||
		f[1].Type.Text != "[Money]" || f[1].Type.Elem.Name != "Money" || f[2].Type.Text != "Colour?" || !f[2].Type.Optional() ||
		f[3].Type.Kind != "map" || !strings.Contains(ev.Payload.Avro, `"name":"total"`) {
		t.Errorf("payload fields %+v", f)
	}
	if !strings.Contains(ev.Example, `"total": {
    "cents": 1234567890123,
    "currency": "EUR"
  }`) || !strings.Contains(ev.Example, `"colour": "red"`) {
		t.Errorf("example payload:\n%s", ev.Example)
	}
	if m := d.Types[0].Fields[1]; !m.HasDefault || m.Default != "EUR" {
		t.Errorf("Money.currency %+v", m)
	}
	rpc := entries[1]
	if rpc.Doc != "Where an order is." || rpc.Payload == nil || rpc.Response == nil || rpc.Response.Fields[0].Type.Name != "Money" {
		t.Errorf("rpc %+v", rpc)
	}
}
