package graph

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

var update = flag.Bool("update", false, "rewrite testdata/system/graph.json")

// systemDirs are the fixture's three modules: shop publishes and serves,
// billing consumes (reading through a helper and a closure) and calls,
// analytics passes a payload to json.Marshal.
var systemDirs = []string{"testdata/system/shop", "testdata/system/billing", "testdata/system/analytics"}

func TestThreeModulesYieldTheExpectedGraph(t *testing.T) {
	var got bytes.Buffer
	if err := sysgraph.Write(&got, built(t, systemDirs...)); err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/system/graph.json"
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("the graph differs from %s (go test -run %s -update):\n%s", golden, t.Name(), got.String())
	}
}

func TestBillingReadsThroughAHelperAndAClosure(t *testing.T) {
	u := consumed(t, built(t, systemDirs...), "billing", "OrderPlaced")
	want := map[string]string{"totalCents": "charge.go:26", "couponCode": "charge.go:15", "orderId": "charge.go:20"}
	for _, f := range u.Fields {
		if want[f.Field] == "" || len(f.Pos) != 1 || f.Pos[0] != want[f.Field] {
			t.Errorf("billing reads %s at %v; want only %v", f.Field, f.Pos, want)
		}
		delete(want, f.Field)
	}
	if len(want) > 0 || u.AllFields || u.Queue != "billing.order.placed" {
		t.Errorf("billing's OrderPlaced: missing reads %v, allFields %v, queue %q", want, u.AllFields, u.Queue)
	}
}

func TestAPayloadPassedToJSONMarshalReadsEveryField(t *testing.T) {
	u := consumed(t, built(t, systemDirs...), "analytics", "OrderShipped")
	if !u.AllFields || !strings.Contains(u.Why, "encoding/json.Marshal") || !strings.Contains(u.Why, "main.go:28") {
		t.Errorf("analytics: allFields %v, why %q; want every field, naming json.Marshal at main.go:28", u.AllFields, u.Why)
	}
}

func TestCheckFindsPublishedNeverConsumedAndConsumedNeverPublished(t *testing.T) {
	var got []string
	for _, f := range Check(built(t, systemDirs...), nil) {
		got = append(got, f.String())
	}
	want := []string{
		"example.com/billing/main.go:30: unpublished: event orders.OrderCancelled is consumed by billing but published or sent by nobody",
		"example.com/shop/main.go:35: unconsumed: event orders.OrderRefunded is published by shop but consumed by nobody",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("check found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCheckIgnoreFileSkipsDeliberateFindings(t *testing.T) {
	ignore, err := ParseIgnore(strings.NewReader("# refunds go to a team outside this repo\nunconsumed orders.OrderRefunded\n\n"), "ignore")
	if err != nil {
		t.Fatal(err)
	}
	fs := Check(built(t, systemDirs...), ignore)
	if len(fs) != 1 || fs[0].Check != CheckUnpublished {
		t.Errorf("with the refund ignored, check found %v; want only the unpublished OrderCancelled", fs)
	}
}

func TestParseIgnoreNamesEveryBadLine(t *testing.T) {
	_, err := ParseIgnore(strings.NewReader("unconsumed orders.A\nunused orders.B\nunserved\n"), "deliberate.txt")
	if err == nil || !strings.Contains(err.Error(), "deliberate.txt:2:") || !strings.Contains(err.Error(), "deliberate.txt:3:") {
		t.Errorf("error %v; want deliberate.txt:2 and :3", err)
	}
}
