package acemqimpl

import (
	"encoding/json"
	"fmt"
)

// UnionBranch splits the JSON of a multi-branch union as Avro's JSON encoding
// writes it, {"<branch>": value}, into the branch's name and its value; JSON
// null (or nothing) gives an empty name. Generated UnmarshalJSON methods call
// it; anything but an object with exactly one key is an error.
func UnionBranch(data json.RawMessage) (string, json.RawMessage, error) {
	if len(data) == 0 || string(data) == "null" {
		return "", nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return "", nil, fmt.Errorf("acemq: a union is an object naming its branch: %w", err)
	}
	if len(m) != 1 {
		return "", nil, fmt.Errorf("acemq: a union is an object with one key, its branch; got %d keys", len(m))
	}
	for k, v := range m {
		return k, v, nil
	}
	return "", nil, nil
}
