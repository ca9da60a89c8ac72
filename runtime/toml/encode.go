package toml

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/ordjson"
)

// errNotTable is why a payload that is not a table at the top level is refused.
var errNotTable = errors.New("TOML is a table format, so a message must be a struct or a map at the top level")

// Encode writes payload, a struct or a map (or a pointer to one), as TOML with
// keys in declaration order. Anything else — a bare list, a string, nil — is
// refused with a fatal error before it reaches the broker.
func (Codec) Encode(payload any) ([]byte, error) {
	tree, err := ordjson.Tree(payload, number)
	if err != nil {
		return nil, acemq.Fatalf("acemq: a %T cannot be written as TOML: %w", payload, err)
	}
	if _, ok := tree.(*ordjson.Object); !ok {
		return nil, acemq.Fatalf("acemq: a %T cannot be written as TOML: %w", payload, errNotTable)
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(value(tree.(*ordjson.Object))); err != nil {
		return nil, acemq.Fatalf("acemq: a %T cannot be written as TOML: %w", payload, err)
	}
	return buf.Bytes(), nil
}

// number keeps integers integers: TOML tells 4250 from 4250.0.
func number(n json.Number) (any, error) {
	if i, err := n.Int64(); err == nil {
		return i, nil
	}
	return n.Float64()
}

// value returns the table t as something the TOML encoder writes in key order:
// a struct whose fields carry the keys as toml tags. A key the tag syntax
// cannot carry (a comma, or "-") falls back to a map, which TOML sorts.
func value(t *ordjson.Object) any {
	fields := make([]reflect.StructField, len(t.Keys))
	for i, k := range t.Keys {
		if strings.ContainsRune(k, ',') || k == "-" || k == "" {
			return asMap(t)
		}
		fields[i] = field(i, k)
	}
	v := reflect.New(reflect.StructOf(fields)).Elem()
	for i, x := range t.Vals {
		if x != nil {
			v.Field(i).Set(reflect.ValueOf(plain(x)))
		}
	}
	return v.Interface()
}

// field is the i-th field of a table's struct, written under key.
func field(i int, key string) reflect.StructField {
	return reflect.StructField{
		Name: "F" + strconv.Itoa(i),
		Type: reflect.TypeFor[any](),
		Tag:  reflect.StructTag(fmt.Sprintf("toml:%s", strconv.Quote(key))),
	}
}

func asMap(t *ordjson.Object) map[string]any {
	m := make(map[string]any, len(t.Keys))
	for i, k := range t.Keys {
		if t.Vals[i] != nil {
			m[k] = plain(t.Vals[i])
		}
	}
	return m
}

// plain turns nested tables into encodable values.
func plain(v any) any {
	switch x := v.(type) {
	case *ordjson.Object:
		return value(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	}
	return v
}
