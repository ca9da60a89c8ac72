package graph

import (
	"strings"
	"testing"
)

// TestAHelperInALoadedLibraryModuleReadsForItsCaller: ledger passes its
// payload to example.com/lib.Total, in another module; loaded, the
// library's read is ledger's, at the library's position.
func TestAHelperInALoadedLibraryModuleReadsForItsCaller(t *testing.T) {
	u := consumed(t, built(t, "testdata/library/ledger", "testdata/library/lib"), "ledger", "OrderPlaced")
	if u.AllFields || len(u.Fields) != 1 || u.Fields[0].Field != "totalCents" || u.Fields[0].Pos[0] != "example.com/lib/total.go:8" {
		t.Errorf("ledger's OrderPlaced: %+v; want totalCents read at example.com/lib/total.go:8", u)
	}
}

// TestAHelperInAModuleNotLoadedReadsEveryField: without the library, the
// call is to an unknown function.
func TestAHelperInAModuleNotLoadedReadsEveryField(t *testing.T) {
	u := consumed(t, built(t, "testdata/library/ledger"), "ledger", "OrderPlaced")
	if !u.AllFields || !strings.Contains(u.Why, "passed to example.com/lib.Total, outside the loaded packages at main.go:21") {
		t.Errorf("ledger alone: allFields %v, why %q", u.AllFields, u.Why)
	}
}
