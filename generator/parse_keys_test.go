package generator

import (
	"strings"
	"testing"
)

// Issue 23 item 7: a mistyped key is answered with the key it most likely
// meant, in YAML contracts and in the acemq property of an .avsc record.
func TestUnknownKeySuggestsTheKeyATypoMeant(t *testing.T) {
	srcs := []Source{
		{Path: "orders.acemq.yaml", Data: []byte("acemq: 1\ndomain: orders\nevents:\n  OrderPlaced:\n    feilds: {orderId: uuid}\n")},
		{Path: "shipped.avsc", Data: []byte(`{"type": "record", "name": "OrderShipped", "namespace": "com.acme.orders",
 "acemq": {"kind": "event", "domain": "orders", "codc": "json"}, "fields": []}`)},
	}
	got := stderrOf(Vet(srcs))
	for _, want := range []string{
		`orders.acemq.yaml:5:5: unknown key "feilds" in event OrderPlaced; did you mean "fields"? (expected one of `,
		`shipped.avsc:2:49: unknown key "codc" in the acemq property of OrderShipped; did you mean "codec"? (expected one of `,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, got)
		}
	}
}

// A key far from every key gets the list only: no guess that misleads.
func TestUnknownKeyFarFromEveryKeySuggestsNothing(t *testing.T) {
	got := stderrOf(Vet([]Source{{Path: "orders.acemq.yaml", Data: []byte("acemq: 1\ndomain: orders\ncolour: blue\nevents: {}\n")}}))
	if !strings.Contains(got, `unknown key "colour" in the contract (expected one of`) || strings.Contains(got, "did you mean") {
		t.Errorf("want the key list without a suggestion, got:\n%s", got)
	}
}

// A key given twice in one mapping (two events of one name) is one
// diagnostic at the second, pointing at the first as file:line:col.
func TestDuplicateYAMLKeyPointsAtTheFirstWithItsFile(t *testing.T) {
	src := "acemq: 1\ndomain: orders\nevents:\n  OrderPlaced: {fields: {a: uuid}}\n  OrderPlaced: {fields: {b: uuid}}\n"
	got := stderrOf(Vet([]Source{{Path: "orders.acemq.yaml", Data: []byte(src)}}))
	want := "orders.acemq.yaml:5:3: invalid YAML: key \"OrderPlaced\" is already given at orders.acemq.yaml:4:3\n"
	if got != want {
		t.Fatalf("got:\n%swant:\n%s", got, want)
	}
}
