package acemqimpl

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
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

// score is a union as acemq-gen generates one.
type score interface{ isScore() }

type (
	scoreMillis struct{ Value time.Duration }
	scoreString struct{ Value string }
)

func (scoreMillis) isScore() {}
func (scoreString) isScore() {}

func scoreUnion(nullable bool) *JSONUnion[score] {
	return &JSONUnion[score]{Name: "score", Field: "field score of Result", Nullable: nullable, Branches: []JSONBranch[score]{
		JSONFormed[score, scoreMillis]("int", JSONMillisForm()),
		JSONPlain[score, scoreString]("string"),
	}}
}

func TestAJSONUnionReadsEachBranchByItsNameThroughItsForm(t *testing.T) {
	u := scoreUnion(false)
	if v, err := u.Decode(json.RawMessage(`{"int": 1500}`)); err != nil || v != (scoreMillis{1500 * time.Millisecond}) {
		t.Fatalf("int branch = %#v, %v", v, err)
	}
	if v, err := u.Decode(json.RawMessage(`{"string": "x"}`)); err != nil || v != (scoreString{"x"}) {
		t.Fatalf("string branch = %#v, %v", v, err)
	}
}

func TestAJSONUnionReadsNullOnlyWhenNullableAndRefusesAnUnknownBranch(t *testing.T) {
	if v, err := scoreUnion(true).Decode(json.RawMessage(`null`)); err != nil || v != nil {
		t.Fatalf("nullable null = %#v, %v", v, err)
	}
	_, err := scoreUnion(false).Decode(json.RawMessage(`null`))
	if err == nil || err.Error() != "acemq: field score of Result needs one of its union's branches; null is not one" {
		t.Fatalf("null = %v", err)
	}
	_, err = scoreUnion(true).Decode(json.RawMessage(`{"long": 1}`))
	if err == nil || err.Error() != `acemq: "long" is not a branch of score (field score of Result)` {
		t.Fatalf("unknown branch = %v", err)
	}
}
