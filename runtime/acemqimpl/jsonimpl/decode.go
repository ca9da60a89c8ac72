package jsonimpl

import (
	"encoding/json"
	"reflect"
	"strconv"
	"time"
	"unsafe"

	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// Unmarshaler is a type whose JSON a generated UnmarshalAcemqJSON method
// reads.
type Unmarshaler interface {
	UnmarshalAcemqJSON(data []byte) error
}

// Fields is a generated record's field reader: it reads the value of the
// field named key into m through one of the Get functions and returns the
// field's index, or returns -1 for a key the record does not spell so.
type Fields[T any] func(m *T, r *Reader, key []byte) int

// maxFields is how many fields the fast path tells apart, to see a key given
// twice; a larger record takes encoding/json's path.
const maxFields = 256

// Decode reads data into m as json.Unmarshal(data, m) does: the canonical
// shape through fields, anything else (see the package doc) through
// json.Unmarshal from the start.
func Decode[T any](data []byte, m *T, fields Fields[T]) error {
	if m != nil && reflect.ValueOf(m).Elem().IsZero() {
		r := Reader{data: data}
		if r.object(func(key []byte) int { return fields(m, &r, key) }) && r.end() {
			return nil
		}
		var zero T
		*m = zero
	}
	return json.Unmarshal(data, m)
}

// object reads a record's object, each key through field.
func (r *Reader) object(field func(key []byte) int) bool {
	if !r.eat('{') {
		return r.giveUp()
	}
	if r.eat('}') {
		return true
	}
	var seen [maxFields / 64]uint64
	for {
		key, plain, ok := r.stringSpan()
		if !ok || !plain || !r.eat(':') {
			return r.giveUp()
		}
		i := field(key[1 : len(key)-1])
		if i < 0 || i >= maxFields || seen[i/64]&(1<<(i%64)) != 0 || r.slow {
			return r.giveUp()
		}
		seen[i/64] |= 1 << (i % 64)
		if r.eat('}') {
			return true
		}
		if !r.eat(',') {
			return r.giveUp()
		}
	}
}

// Get reads field i's value into p in form f and returns i.
func Get[T any](r *Reader, i int, p *T, f Form[T]) int {
	f.Dec(r, p)
	return i
}

// GetOpt reads an optional field: null is nil.
func GetOpt[T any](r *Reader, i int, p **T, f Form[T]) int {
	decOpt(r, p, f)
	return i
}

// GetArray reads an array field.
func GetArray[T any](r *Reader, i int, p *[]T, f Form[T]) int {
	decArray(r, p, f)
	return i
}

// GetMap reads a map field.
func GetMap[T any](r *Reader, i int, p *map[string]T, f Form[T]) int {
	decMap(r, p, f)
	return i
}

func decOpt[T any](r *Reader, p **T, f Form[T]) {
	if r.null() {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(T)
	}
	f.Dec(r, *p)
}

// decArray reads an array as encoding/json does into a nil slice: null
// leaves it nil, [] is empty and not nil.
func decArray[T any](r *Reader, p *[]T, f Form[T]) {
	if r.null() {
		*p = nil
		return
	}
	if !r.eat('[') || !r.deeper() {
		return
	}
	defer r.shallower()
	s := make([]T, 0, 4)
	if r.eat(']') {
		*p = s
		return
	}
	for !r.slow {
		s = append(s, *new(T))
		f.Dec(r, &s[len(s)-1])
		if r.eat(']') {
			*p = s
			return
		}
		if !r.eat(',') {
			r.giveUp()
		}
	}
}

// decMap reads an object of values of f into a new map; a key given twice
// keeps its last value.
func decMap[T any](r *Reader, p *map[string]T, f Form[T]) {
	if r.null() {
		*p = nil
		return
	}
	if !r.eat('{') || !r.deeper() {
		return
	}
	defer r.shallower()
	m := make(map[string]T)
	if r.eat('}') {
		*p = m
		return
	}
	for !r.slow {
		var k string
		decString(r, &k)
		if !r.eat(':') {
			r.giveUp()
			return
		}
		var v T
		f.Dec(r, &v)
		m[k] = v
		if r.eat('}') {
			*p = m
			return
		}
		if !r.eat(',') {
			r.giveUp()
		}
	}
}

// deeper counts one level of nesting; past encoding/json's limit the
// reference reports the error.
func (r *Reader) deeper() bool {
	if r.depth++; r.depth > maxDepth {
		return r.giveUp()
	}
	return true
}

func (r *Reader) shallower() { r.depth-- }

// decString reads a string; null leaves p unchanged. A string with escapes
// or non-ASCII bytes is unquoted by encoding/json (invalid UTF-8 becomes
// U+FFFD there).
func decString[T ~string](r *Reader, p *T) {
	if r.null() {
		return
	}
	span, plain, ok := r.stringSpan()
	if !ok {
		return
	}
	if plain {
		*p = T(span[1 : len(span)-1])
		return
	}
	var s string
	if json.Unmarshal(span, &s) != nil {
		r.giveUp()
		return
	}
	*p = T(s)
}

func decBool(r *Reader, p *bool) {
	switch r.peek() {
	case 't':
		*p = r.literal("true")
	case 'f':
		r.literal("false")
		*p = false
	case 'n':
		r.null()
	default:
		r.giveUp()
	}
}

// decInt reads an integer that fits T; a fraction, an exponent or too
// large a value is encoding/json's to refuse.
func decInt[T int32 | int64](r *Reader, p *T) {
	if r.null() {
		return
	}
	span, integer, ok := r.number()
	if !ok || !integer {
		r.giveUp()
		return
	}
	n, err := strconv.ParseInt(string(span), 10, int(unsafe.Sizeof(*p))*8)
	if err != nil {
		r.giveUp()
		return
	}
	*p = T(n)
}

func decFloat[T float32 | float64](r *Reader, p *T) {
	if r.null() {
		return
	}
	span, _, ok := r.number()
	if !ok {
		return
	}
	f, err := strconv.ParseFloat(string(span), int(unsafe.Sizeof(*p))*8)
	if err != nil {
		r.giveUp()
		return
	}
	*p = T(f)
}

// decTime reads as time.Time.UnmarshalJSON does, which encoding/json calls.
func decTime(r *Reader, p *time.Time) {
	if span, ok := r.skip(); ok && p.UnmarshalJSON(span) != nil {
		r.giveUp()
	}
}

// decRecord reads a nested record through its own decoder; null leaves it
// unchanged, as encoding/json leaves it.
func decRecord[T any, P interface {
	*T
	Unmarshaler
}](r *Reader, p *T) {
	if r.null() {
		return
	}
	if r.peek() != '{' {
		r.giveUp()
		return
	}
	if span, ok := r.skip(); ok && P(p).UnmarshalAcemqJSON(span) != nil {
		r.giveUp()
	}
}

// decReflect reads one value with encoding/json.
func decReflect[T any](r *Reader, p *T) {
	if span, ok := r.skip(); ok && json.Unmarshal(span, p) != nil {
		r.giveUp()
	}
}

func decUnion[T any](r *Reader, p *T, dec func(json.RawMessage) (T, error)) {
	span, ok := r.skip()
	if !ok {
		return
	}
	v, err := dec(span)
	if err != nil {
		r.giveUp()
		return
	}
	*p = v
}

func decVia[T any](r *Reader, p *T, f acemqimpl.JSONForm[T]) {
	if span, ok := r.skip(); ok && f.Bind(p).UnmarshalJSON(span) != nil {
		r.giveUp()
	}
}
