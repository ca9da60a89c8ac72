package decodelimit

import "testing"

func TestResolveElementsCapsOnlyAnUnsetMaxElements(t *testing.T) {
	if got := ResolveElements(Limits{}, 10).MaxElements; got != min(Process().MaxElements, 10) {
		t.Fatalf("unset MaxElements resolved to %d, want the ceiling 10", got)
	}
	if got := ResolveElements(Limits{MaxElements: 500}, 10).MaxElements; got != 500 {
		t.Fatalf("MaxElements 500 resolved to %d, want it kept", got)
	}
	if got := ResolveElements(Limits{}, 10).MaxBody; got != Process().MaxBody {
		t.Fatalf("MaxBody resolved to %d, want the process-wide %d", got, Process().MaxBody)
	}
}
