package jsonimpl

import (
	"encoding/json"
	"errors"
	"slices"
)

// Appender is a type whose JSON a generated AppendJSON method writes.
type Appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// Writer appends the JSON of a record to B. The first error sticks: later
// writes are no-ops and Close returns it.
type Writer struct {
	B   []byte
	err error
}

// errUnsupported stands for a value encoding/json refuses (a NaN float);
// the caller's reflective retry reports encoding/json's own error.
var errUnsupported = errors.New("jsonimpl: a value encoding/json refuses")

// Object returns a Writer that has started a JSON object on b.
func Object(b []byte) Writer { return Writer{B: append(b, '{')} }

// Close ends the object and returns the JSON, or the first error.
func (w *Writer) Close() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	return append(w.B, '}'), nil
}

// fail records err unless an earlier error is there.
func (w *Writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// Put writes key (the field's `"name":`, after a comma for every field
// but the first) and v in form f.
func Put[T any](w *Writer, key string, v T, f Form[T]) {
	w.B = append(w.B, key...)
	f.Enc(w, v)
}

// PutOpt writes key and the optional p: null when nil.
func PutOpt[T any](w *Writer, key string, p *T, f Form[T]) {
	w.B = append(w.B, key...)
	encOpt(w, p, f)
}

// PutArray writes key and the array s: null when nil, as encoding/json.
func PutArray[T any](w *Writer, key string, s []T, f Form[T]) {
	w.B = append(w.B, key...)
	encArray(w, s, f)
}

// PutMap writes key and the map m, keys sorted as encoding/json sorts them.
func PutMap[T any](w *Writer, key string, m map[string]T, f Form[T]) {
	w.B = append(w.B, key...)
	encMap(w, m, f)
}

func encOpt[T any](w *Writer, p *T, f Form[T]) {
	if p == nil {
		w.B = append(w.B, "null"...)
		return
	}
	f.Enc(w, *p)
}

func encArray[T any](w *Writer, s []T, f Form[T]) {
	if s == nil {
		w.B = append(w.B, "null"...)
		return
	}
	w.B = append(w.B, '[')
	for i := range s {
		if i > 0 {
			w.B = append(w.B, ',')
		}
		f.Enc(w, s[i])
	}
	w.B = append(w.B, ']')
}

func encMap[T any](w *Writer, m map[string]T, f Form[T]) {
	if m == nil {
		w.B = append(w.B, "null"...)
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w.B = append(w.B, '{')
	for i, k := range keys {
		if i > 0 {
			w.B = append(w.B, ',')
		}
		w.B = append(AppendString(w.B, k), ':')
		f.Enc(w, m[k])
	}
	w.B = append(w.B, '}')
}

// encReflect writes v with encoding/json: the path of the values the
// generator has no typed form for (bound Go types, unions).
func encReflect[T any](w *Writer, v T) {
	b, err := json.Marshal(v)
	if err != nil {
		w.fail(err)
		return
	}
	w.B = append(w.B, b...)
}
