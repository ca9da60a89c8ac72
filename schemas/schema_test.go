package schemas

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/acemq/acemq-gen/generator"
)

// node is the part of a JSON Schema object the test reads.
type node struct {
	Properties map[string]json.RawMessage `json:"properties"`
	Defs       map[string]node            `json:"$defs"`
	OneOf      []node                     `json:"oneOf"`
}

// definitions maps the parser's key contexts to the schema objects that
// describe them ("" is the root).
var definitions = map[string]string{"file": "", "retry": "retry", "type": "type", "field": "fieldLong",
	"event": "event", "command": "command", "header": "header", "rpc": "rpc", "payload": "payload",
	"stream": "stream"}

func load(t *testing.T) node {
	t.Helper()
	var root node
	if err := json.Unmarshal(Contract, &root); err != nil {
		t.Fatalf("contract.schema.json is not JSON: %v", err)
	}
	return root
}

func propertiesOf(t *testing.T, root node, ctx string) []string {
	t.Helper()
	obj := root
	if def := definitions[ctx]; def != "" {
		var ok bool
		if obj, ok = root.Defs[def]; !ok {
			t.Fatalf("schema has no $defs/%s for the %s context", def, ctx)
		}
	}
	if ctx == "header" && len(obj.OneOf) == 2 {
		obj = obj.OneOf[1] // the long form {type, required, doc}
	}
	var keys []string
	for k := range obj.Properties {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func TestEveryKeyTheParserAcceptsIsInTheSchema(t *testing.T) {
	root := load(t)
	for ctx, keys := range generator.AcceptedKeys() {
		have := propertiesOf(t, root, ctx)
		for _, k := range keys {
			if !slices.Contains(have, k) {
				t.Errorf("the parser reads %q in the %s context; the schema lacks it", k, ctx)
			}
		}
	}
}

func TestTheSchemaNamesNoKeyOutsideTheFormat(t *testing.T) {
	root := load(t)
	format := generator.FormatKeys()
	for ctx := range definitions {
		for _, k := range propertiesOf(t, root, ctx) {
			if !slices.Contains(format[ctx], k) {
				t.Errorf("the schema allows %q in the %s context; the parser calls it unknown", k, ctx)
			}
		}
	}
}
