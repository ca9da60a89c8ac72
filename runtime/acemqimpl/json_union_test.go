package acemqimpl

import (
	"strings"
	"testing"
)

func TestUnionBranchSplitsTheBranchNameFromItsValue(t *testing.T) {
	name, raw, err := UnionBranch([]byte(`{"com.acme.Quantity":{"amount":5}}`))
	if err != nil || name != "com.acme.Quantity" || string(raw) != `{"amount":5}` {
		t.Fatalf("UnionBranch = %q, %s, %v", name, raw, err)
	}
	if name, _, err := UnionBranch([]byte("null")); name != "" || err != nil {
		t.Fatalf("null gave %q, %v; want an empty name", name, err)
	}
}

func TestUnionBranchRefusesAnythingButOneKey(t *testing.T) {
	for in, want := range map[string]string{
		`{"long":1,"string":"x"}`: "got 2 keys",
		`{}`:                      "got 0 keys",
		`5`:                       "an object naming its branch",
	} {
		if _, _, err := UnionBranch([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("UnionBranch(%s) error %v, want %q", in, err, want)
		}
	}
}
