package ordjson

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestTreeKeepsKeyOrderAndNumberText(t *testing.T) {
	type payload struct {
		Z int     `json:"z"`
		A float64 `json:"a"`
		M []any   `json:"m"`
	}
	got, err := Tree(payload{Z: 1, A: 2.5, M: []any{map[string]any{"k": 3}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &Object{Keys: []string{"z", "a", "m"}, Vals: []any{json.Number("1"), json.Number("2.5"),
		[]any{&Object{Keys: []string{"k"}, Vals: []any{json.Number("3")}}}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v", got)
	}
	n, err := Tree([]int{7}, func(json.Number) (any, error) { return "n", nil })
	if err != nil || !reflect.DeepEqual(n, []any{"n"}) {
		t.Fatalf("with a number hook: %#v, %v", n, err)
	}
}
