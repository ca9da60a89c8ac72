package sysgraph

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestWriteThenDecodeGivesTheSameGraph(t *testing.T) {
	g := &Graph{Services: []Service{{Name: "billing", Module: "example.com/billing",
		Consumes: []Use{{Domain: "orders", Message: "OrderPlaced", Kind: "event", Queue: "billing.order.placed", Pos: "main.go:3",
			Fields: []FieldRead{{Field: "totalCents", Pos: []string{"charge.go:9"}}}}},
		Calls: []Use{{Domain: "orders", Message: "GetOrderStatus", Kind: "rpc", Pos: "main.go:7", AllFields: true, Why: "x"}}}}}
	var b bytes.Buffer
	if err := Write(&b, g); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(&b, "g.json")
	if err != nil || !reflect.DeepEqual(got, g) {
		t.Errorf("decoded %+v, %v; want %+v", got, err, g)
	}
}

func TestDecodeRefusesAnotherVersionAndUnknownKeys(t *testing.T) {
	for in, want := range map[string]string{
		`{"version": 2, "services": []}`:                "usage graph g.json: version 2, this acemq-gen reads version 1",
		`{"version": 1, "services": [], "extra": true}`: `usage graph g.json: json: unknown field "extra"`,
	} {
		if _, err := Decode(strings.NewReader(in), "g.json"); err == nil || err.Error() != want {
			t.Errorf("%s: %v; want %s", in, err, want)
		}
	}
}
