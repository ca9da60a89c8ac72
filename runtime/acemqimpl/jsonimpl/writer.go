package jsonimpl

import (
	"encoding/json"
	"slices"
)

// Appender is a type whose JSON a generated AppendJSON method writes.
type Appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// Writer appends the JSON of a record to B. The first error sticks: later
// writes are no-ops and Close returns it. Forms take and return the buffer
// rather than the Writer, so a Writer stays on its caller's stack.
type Writer struct {
	B   []byte
	err error
}

// Object returns a Writer that has started a JSON object on b.
func Object(b []byte) Writer { return Writer{B: append(b, '{')} }

// Close ends the object and returns the JSON, or the first error.
func (w *Writer) Close() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	return append(w.B, '}'), nil
}

// Put writes key (the field's `"name":`, after a comma for every field
// but the first) and v in form f.
func Put[T any](w *Writer, key string, v T, f Form[T]) {
	if w.err == nil {
		w.B, w.err = f.Enc(append(w.B, key...), v)
	}
}

// PutOpt writes key and the optional p: null when nil.
func PutOpt[T any](w *Writer, key string, p *T, f Form[T]) {
	if w.err == nil {
		w.B, w.err = encOpt(append(w.B, key...), p, f)
	}
}

// PutArray writes key and the array s: null when nil, as encoding/json.
func PutArray[T any](w *Writer, key string, s []T, f Form[T]) {
	if w.err == nil {
		w.B, w.err = encArray(append(w.B, key...), s, f)
	}
}

// PutMap writes key and the map m, keys sorted as encoding/json sorts them.
func PutMap[T any](w *Writer, key string, m map[string]T, f Form[T]) {
	if w.err == nil {
		w.B, w.err = encMap(append(w.B, key...), m, f)
	}
}

func encOpt[T any](b []byte, p *T, f Form[T]) ([]byte, error) {
	if p == nil {
		return append(b, "null"...), nil
	}
	return f.Enc(b, *p)
}

func encArray[T any](b []byte, s []T, f Form[T]) ([]byte, error) {
	if s == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	var err error
	for i := range s {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = f.Enc(b, s[i]); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

func encMap[T any](b []byte, m map[string]T, f Form[T]) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = f.Enc(append(AppendString(b, k), ':'), m[k]); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// encReflect writes v with encoding/json: the path of the values the
// generator has no typed form for (bound Go types, unions).
func encReflect[T any](b []byte, v T) ([]byte, error) {
	out, err := json.Marshal(v)
	return append(b, out...), err
}
