// Package yamlout writes YAML for the generator's emission: the generator's
// own files read YAML only in parse_*.go, so writing goes through here.
package yamlout

import "github.com/goccy/go-yaml"

// FromJSON rewrites a JSON document as block-style YAML, keeping the order of
// every object's keys: sequences indented under their key, multi-line strings
// as literal blocks. Safe for concurrent use.
func FromJSON(data []byte) ([]byte, error) {
	var v any
	if err := yaml.UnmarshalWithOptions(data, &v, yaml.UseOrderedMap()); err != nil {
		return nil, err
	}
	return yaml.MarshalWithOptions(v, yaml.Indent(2), yaml.IndentSequence(true), yaml.UseLiteralStyleIfMultiline(true))
}
