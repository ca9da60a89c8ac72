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
)

// errNotTable is why a payload that is not a table at the top level is refused.
var errNotTable = errors.New("TOML is a table format, so a message must be a struct or a map at the top level")

// Encode writes payload, a struct or a map (or a pointer to one), as TOML with
// keys in declaration order. Anything else — a bare list, a string, nil — is
// refused with a fatal error before it reaches the broker.
func (Codec) Encode(payload any) ([]byte, error) {
	tree, err := jsonTree(payload)
	if err != nil {
		return nil, acemq.Fatalf("acemq: a %T cannot be written as TOML: %w", payload, err)
	}
	if _, ok := tree.(*table); !ok {
		return nil, acemq.Fatalf("acemq: a %T cannot be written as TOML: %w", payload, errNotTable)
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(tree.(*table).value()); err != nil {
		return nil, acemq.Fatalf("acemq: a %T cannot be written as TOML: %w", payload, err)
	}
	return buf.Bytes(), nil
}

// table is a JSON object with its keys in the order they were written.
type table struct {
	keys []string
	vals []any
}

// jsonTree renders v through encoding/json, so json tags, omitempty and
// MarshalJSON apply, and reads it back keeping object key order.
func jsonTree(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return readValue(dec)
}

func readValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return readTable(dec)
		}
		return readArray(dec)
	case json.Number:
		return number(t)
	}
	return tok, nil
}

func readTable(dec *json.Decoder) (any, error) {
	t := &table{}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		v, err := readValue(dec)
		if err != nil {
			return nil, err
		}
		t.keys, t.vals = append(t.keys, key.(string)), append(t.vals, v)
	}
	_, err := dec.Token() // '}'
	return t, err
}

func readArray(dec *json.Decoder) (any, error) {
	arr := []any{}
	for dec.More() {
		v, err := readValue(dec)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	_, err := dec.Token() // ']'
	return arr, err
}

// number keeps integers integers: TOML tells 4250 from 4250.0.
func number(n json.Number) (any, error) {
	if i, err := n.Int64(); err == nil {
		return i, nil
	}
	return n.Float64()
}

// value returns the table as something the TOML encoder writes in key order:
// a struct whose fields carry the keys as toml tags. A key the tag syntax
// cannot carry (a comma, or "-") falls back to a map, which TOML sorts.
func (t *table) value() any {
	fields := make([]reflect.StructField, len(t.keys))
	for i, k := range t.keys {
		if strings.ContainsRune(k, ',') || k == "-" || k == "" {
			return t.asMap()
		}
		fields[i] = field(i, k)
	}
	v := reflect.New(reflect.StructOf(fields)).Elem()
	for i, x := range t.vals {
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

func (t *table) asMap() map[string]any {
	m := make(map[string]any, len(t.keys))
	for i, k := range t.keys {
		if t.vals[i] != nil {
			m[k] = plain(t.vals[i])
		}
	}
	return m
}

// plain turns nested tables into encodable values.
func plain(v any) any {
	switch x := v.(type) {
	case *table:
		return x.value()
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	}
	return v
}
