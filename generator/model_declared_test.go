package generator

import (
	"strings"
	"testing"
)

// Issue 23 item 6: a message declared twice used to produce seven
// diagnostics, some naming generator internals (orderPlacedSpec).
func TestDuplicateMessageNameIsOneDiagnosticAtTheSecondDeclaration(t *testing.T) {
	src := "acemq: 1\ndomain: orders\nevents:\n  OrderPlaced:\n    fields: {orderId: uuid}\n" +
		"commands:\n  OrderPlaced:\n    fields: {orderId: uuid}\n"
	ds := Vet([]Source{{Path: "orders.acemq.yaml", Data: []byte(src)}})
	want := "orders.acemq.yaml:7:3: message OrderPlaced is already declared at orders.acemq.yaml:4:3\n"
	if got := stderrOf(ds); got != want {
		t.Fatalf("got:\n%swant:\n%s", got, want)
	}
}

// The Go names a duplicate would claim again are not reported, whatever
// declares it: a type, an rpc, an .avsc record.
func TestDuplicateNamesAddNoGoNameCollisions(t *testing.T) {
	got := stderrOf(Vet(caseSources(t, goldenDir+"/diag_duplicate_names")))
	if n := strings.Count(got, "\n"); n != 4 || strings.Contains(got, "Go-name collision") || strings.Contains(got, "Spec") {
		t.Fatalf("want 4 diagnostics, none about Go names, got:\n%s", got)
	}
}
