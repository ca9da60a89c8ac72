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

// JSONUnion reads a union U of generated code from JSON as Avro's JSON
// encoding writes it, {"<branch>": value}: generated UnmarshalJSON methods
// decode each union field with their union's JSONUnion. Name is the union's
// Go type and Field the field it is the type of ("field note of
// StockMoved"), which errors name; a Nullable union reads JSON null as nil.
type JSONUnion[U any] struct {
	Name     string
	Field    string
	Nullable bool
	Branches []JSONBranch[U]
}

// JSONBranch is one branch of a JSONUnion: its name in the JSON and how its
// value is read. Build one with JSONPlain or JSONFormed.
type JSONBranch[U any] struct {
	key  string
	read func(json.RawMessage) (U, error)
}

// Decode reads data as one of u's branches, by the branch's name.
func (u *JSONUnion[U]) Decode(data json.RawMessage) (U, error) {
	var none U
	name, raw, err := UnionBranch(data)
	if err != nil {
		return none, err
	}
	if name == "" {
		if u.Nullable {
			return none, nil
		}
		return none, fmt.Errorf("acemq: %s needs one of its union's branches; null is not one", u.Field)
	}
	for _, b := range u.Branches {
		if b.key == name {
			return b.read(raw)
		}
	}
	return none, fmt.Errorf("acemq: %q is not a branch of %s (%s)", name, u.Name, u.Field)
}

// unionBranch is the Go type of a branch of a generated union: a struct
// holding the branch's value.
type unionBranch[V any] interface{ ~struct{ Value V } }

// asUnion returns v as the branch W of U.
func asUnion[U any, W unionBranch[V], V any](v V) U {
	u, _ := any(W(struct{ Value V }{v})).(U)
	return u
}

// JSONPlain is the branch W of U whose value JSON carries as encoding/json
// writes it.
func JSONPlain[U any, W unionBranch[V], V any](key string) JSONBranch[U] {
	return JSONBranch[U]{key: key, read: func(raw json.RawMessage) (U, error) {
		var v V
		err := json.Unmarshal(raw, &v)
		return asUnion[U, W](v), err
	}}
}

// JSONFormed is the branch W of U whose value JSON carries in form (a
// duration in units, a decimal as a string).
func JSONFormed[U any, W unionBranch[V], V any](key string, form JSONForm[V]) JSONBranch[U] {
	return JSONBranch[U]{key: key, read: func(raw json.RawMessage) (U, error) {
		var v V
		err := form.Bind(&v).UnmarshalJSON(raw)
		return asUnion[U, W](v), err
	}}
}
