package generator

import (
	"strings"
	"testing"
	"time"
)

const catalogContract = `acemq: 1
domain: shop
events:
  OrderPlaced:
    codec: avro-registered
    fields: {orderId: string}
commands:
  CancelOrder:
    encrypted: true
    retry: {attempts: 3, backoff: fixed, initial: 30s}
    fields: {orderId: string}
rpc:
  GetOrder:
    request: {fields: {orderId: string}}
    response: {fields: {orderId: string}}
`

func TestCatalogSaysWhereEachMessageTravelsAndHowItIsEncoded(t *testing.T) {
	entries, ds := Catalog([]Source{{Path: "shop.acemq.yaml", Data: []byte(catalogContract)}})
	if ds.HasErrors() || len(entries) != 3 {
		t.Fatalf("Catalog = %+v, %v; want three entries", entries, ds)
	}
	ev, cmd, rpc := entries[0], entries[1], entries[2]
	if ev.Kind != "event" || ev.Exchange != "shop" || ev.RoutingKey != "order.placed" || ev.Type != "order.placed" ||
		ev.Codec != "avro-registered" || ev.Subject != "shop-order.placed" || !strings.Contains(ev.AvroSchema, "orderId") ||
		ev.AvroFullSchema == "" || ev.Queue != "" {
		t.Errorf("event %+v", ev)
	}
	if cmd.Kind != "command" || cmd.Queue != "shop.cancel-order" || !cmd.Encrypted || cmd.Codec != "json" ||
		cmd.Retry.Attempts != 3 || cmd.Retry.Backoff != "fixed" || cmd.Retry.Initial != 30*time.Second || cmd.AvroSchema != "" {
		t.Errorf("command %+v", cmd)
	}
	if rpc.Kind != "rpc" || rpc.Queue != "shop.get-order" || rpc.Type != "shop.get-order" || rpc.Exchange != "" {
		t.Errorf("rpc %+v", rpc)
	}
	if got, ds := Catalog([]Source{{Path: "bad.acemq.yaml", Data: []byte("acemq: 1\n")}}); got != nil || !ds.HasErrors() {
		t.Errorf("a broken contract gave %+v, %v", got, ds)
	}
}
