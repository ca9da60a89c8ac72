package graph

import (
	"bytes"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

func use(kind, message, pos string) sysgraph.Use {
	return sysgraph.Use{Domain: "orders", Message: message, Kind: kind, Pos: pos}
}

// handGraph: till calls an RPC nobody serves and sends a command it also
// consumes; billing serves another RPC and calls it.
var handGraph = &sysgraph.Graph{Version: sysgraph.Version, Services: []sysgraph.Service{
	{Name: "till", Module: "example.com/till",
		Calls:    []sysgraph.Use{use("rpc", "GetReceipt", "till.go:3")},
		Sends:    []sysgraph.Use{use("command", "CancelOrder", "till.go:5")},
		Consumes: []sysgraph.Use{use("command", "CancelOrder", "till.go:9")}},
	{Name: "billing", Module: "example.com/billing",
		Calls:  []sysgraph.Use{use("rpc", "GetInvoice", "b.go:2")},
		Serves: []sysgraph.Use{use("rpc", "GetInvoice", "b.go:7")}},
}}

func TestCheckFindsAnRPCCalledButServedByNobodyAndACommandSentByItsOwner(t *testing.T) {
	var got []string
	for _, f := range Check(handGraph, nil) {
		got = append(got, f.String())
	}
	want := "example.com/till/till.go:5: self-send: command orders.CancelOrder is sent by till, which owns it: call the code directly\n" +
		"example.com/till/till.go:3: unserved: rpc orders.GetReceipt is called by till but served by nobody"
	if strings.Join(got, "\n") != want {
		t.Errorf("check found\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

func TestDiffListsConsumersRemovedAndFieldsNoLongerRead(t *testing.T) {
	old := &sysgraph.Graph{Services: []sysgraph.Service{{Name: "billing", Consumes: []sysgraph.Use{
		{Domain: "orders", Message: "OrderPlaced", Kind: "event", Queue: "billing.order.placed", Pos: "a.go:1",
			Fields: []sysgraph.FieldRead{{Field: "totalCents", Pos: []string{"a.go:2"}}}},
		{Domain: "orders", Message: "OrderShipped", Kind: "event", Queue: "billing.order.shipped", Pos: "a.go:5"}}}}}
	next := &sysgraph.Graph{Services: []sysgraph.Service{{Name: "billing", Consumes: []sysgraph.Use{
		{Domain: "orders", Message: "OrderPlaced", Kind: "event", Queue: "billing.order.placed", Pos: "a.go:9",
			AllFields: true, Why: "passed to fmt.Println at a.go:10"}}}}}
	got := strings.Join(Diff(old, next), "\n")
	want := "+ billing consumes event orders.OrderPlaced (queue billing.order.placed) reads every field: passed to fmt.Println at a.go:10\n" +
		"- billing consumes event orders.OrderPlaced (queue billing.order.placed) no longer reads totalCents\n" +
		"- billing consumes event orders.OrderShipped (queue billing.order.shipped) at a.go:5"
	if got != want {
		t.Errorf("diff\n%s\nwant\n%s", got, want)
	}
}

func TestDOTAndMermaidDrawEveryArrow(t *testing.T) {
	var dot, mermaid bytes.Buffer
	if err := WriteDOT(&dot, handGraph); err != nil {
		t.Fatal(err)
	}
	if err := WriteMermaid(&mermaid, handGraph); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"service till" -> "orders.CancelOrder" [label="sends"];`,
		`"orders.CancelOrder" -> "service till" [label="consumes"];`, `"orders.GetInvoice" -> "service billing" [label="serves"];`} {
		if !strings.Contains(dot.String(), want) {
			t.Errorf("dot lacks %s:\n%s", want, dot.String())
		}
	}
	if got := strings.Count(mermaid.String(), "-->"); got != 5 || !strings.Contains(mermaid.String(), `s0["till"]`) {
		t.Errorf("mermaid has %d arrows, want 5:\n%s", got, mermaid.String())
	}
}
