package schemas

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/acemq/acemq-gen/generator"
)

// enumAt is the enum of the schema object at the path of names under the
// root, read with a generic decoder.
func enumAt(t *testing.T, path ...string) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(Contract, &v); err != nil {
		t.Fatal(err)
	}
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("the schema has no object at %v", path)
		}
		v = m[p]
	}
	var out []string
	for _, e := range v.(map[string]any)["enum"].([]any) {
		out = append(out, e.(string))
	}
	return out
}

func TestTheSchemasCodecsAreTheGeneratorsCodecTable(t *testing.T) {
	all, rpc := generator.CodecNames()
	if got := enumAt(t, "$defs", "codec"); !slices.Equal(got, all) {
		t.Errorf("the schema's codecs are %v; the generator's table has %v", got, all)
	}
	if got := enumAt(t, "$defs", "rpc", "properties", "codec"); !slices.Equal(got, rpc) {
		t.Errorf("the schema's rpc codecs are %v; the generator's table has %v", got, rpc)
	}
}

func TestTheSchemasQueueKeyValuesAreTheGeneratorsQueueKeyTable(t *testing.T) {
	defs := map[string]string{"leader-locator": "leaderLocator", "dead-letter-strategy": "deadLetterStrategy",
		"set-aside-queues": "setAsideQueues"}
	values := generator.QueueKeyValues()
	if len(values) != len(defs) {
		t.Fatalf("the generator has string queue keys %v; this test knows %v", values, defs)
	}
	for key, want := range values {
		if got := enumAt(t, "$defs", defs[key]); !slices.Equal(got, want) {
			t.Errorf("the schema's %s takes %v; the generator's table says %v", key, got, want)
		}
	}
}
