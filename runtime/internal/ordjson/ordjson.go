// Package ordjson renders a payload through encoding/json and reads it back
// keeping what a map loses: the order of an object's keys and the text of
// its numbers. The toml and xml codecs write their documents from it.
package ordjson

import (
	"bytes"
	"encoding/json"
)

// Object is a JSON object with its keys in the order they were written.
type Object struct {
	Keys []string
	Vals []any
}

// Tree renders v through encoding/json, so json tags, omitempty and
// MarshalJSON apply, and reads it back: objects as *Object, arrays as
// []any, numbers as number makes them (json.Number when number is nil),
// then strings, booleans and nil.
func Tree(v any, number func(json.Number) (any, error)) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	r := reader{dec: dec, number: number}
	return r.value()
}

type reader struct {
	dec    *json.Decoder
	number func(json.Number) (any, error)
}

func (r reader) value() (any, error) {
	tok, err := r.dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return r.object()
		}
		return r.array()
	case json.Number:
		if r.number != nil {
			return r.number(t)
		}
	}
	return tok, nil
}

func (r reader) object() (any, error) {
	o := &Object{}
	for r.dec.More() {
		key, err := r.dec.Token()
		if err != nil {
			return nil, err
		}
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		o.Keys, o.Vals = append(o.Keys, key.(string)), append(o.Vals, v)
	}
	_, err := r.dec.Token() // '}'
	return o, err
}

func (r reader) array() (any, error) {
	arr := []any{}
	for r.dec.More() {
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	_, err := r.dec.Token() // ']'
	return arr, err
}
