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
// Reader and the field's index, or -1 for a key the record does not spell
// so. The Reader goes by value: a pointer passed to a function value would
// move it to the heap.
type Fields[T any] func(m *T, r Reader, key []byte) (Reader, int)

// maxFields is how many fields the fast path tells apart, to see a key given
// twice; a larger record takes encoding/json's path.
const maxFields = 256

// Decode reads data into m as json.Unmarshal(data, m) does: the canonical
// shape through fields, anything else (see the package doc) through
// json.Unmarshal from the start. required are the indexes of the fields the
// reflective path refuses to miss (a union without null).
func Decode[T any](data []byte, m *T, fields Fields[T], required ...int) error {
	if m != nil && reflect.ValueOf(m).Elem().IsZero() {
		r, seen, ok := readObject(Reader{data: data}, m, fields)
		if ok && r.end() && seen.all(required) {
			return nil
		}
		var zero T
		*m = zero
	}
	return json.Unmarshal(data, m)
}

// fieldSet is the set of a record's fields a body gave.
type fieldSet [maxFields / 64]uint64

func (s *fieldSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }

// all reports whether every field of indexes is in s.
func (s *fieldSet) all(indexes []int) bool {
	for _, i := range indexes {
		if !s.has(i) {
			return false
		}
	}
	return true
}

// readObject reads a record's object into m, each key through fields, and
// returns the fields it read.
func readObject[T any](r Reader, m *T, fields Fields[T]) (_ Reader, seen fieldSet, ok bool) {
	if !r.eat('{') {
		return r, seen, r.giveUp()
	}
	if r.eat('}') {
		return r, seen, true
	}
	for {
		key, plain, ok := r.stringSpan()
		if !ok || !plain || !r.eat(':') {
			return r, seen, r.giveUp()
		}
		var i int
		r, i = fields(m, r, key[1:len(key)-1])
		if i < 0 || i >= maxFields || seen.has(i) || r.slow {
			return r, seen, r.giveUp()
		}
		seen[i/64] |= 1 << (i % 64)
		if r.eat('}') {
			return r, seen, true
		}
		if !r.eat(',') {
			return r, seen, r.giveUp()
		}
	}
}

// Get reads field i's value into p in form f and returns i.
func Get[T any](r Reader, i int, p *T, f Form[T]) (Reader, int) {
	return f.Dec(r, p), i
}

// GetOpt reads an optional field: null is nil.
func GetOpt[T any](r Reader, i int, p **T, f Form[T]) (Reader, int) {
	return decOpt(r, p, f), i
}

// GetArray reads an array field.
func GetArray[T any](r Reader, i int, p *[]T, f Form[T]) (Reader, int) {
	return decArray(r, p, f), i
}

// GetMap reads a map field.
func GetMap[T any](r Reader, i int, p *map[string]T, f Form[T]) (Reader, int) {
	return decMap(r, p, f), i
}

// The dec functions take the Reader by value and return it: a pointer
// passed to a form's function would move the Reader to the heap.

func decOpt[T any](r Reader, p **T, f Form[T]) Reader {
	if r.null() {
		*p = nil
		return r
	}
	if *p == nil {
		*p = new(T)
	}
	return f.Dec(r, *p)
}

// decArray reads an array as encoding/json does into a nil slice: null
// leaves it nil, [] is empty and not nil.
func decArray[T any](r Reader, p *[]T, f Form[T]) Reader {
	if null, ok := r.open('['); null || !ok {
		if null {
			*p = nil
		}
		return r
	}
	s := make([]T, 0, 4)
	if r.eat(']') {
		*p = s
		return r.shallower()
	}
	for !r.slow {
		s = append(s, *new(T))
		if r = f.Dec(r, &s[len(s)-1]); r.eat(']') {
			*p = s
			return r.shallower()
		}
		if !r.eat(',') {
			r.giveUp()
		}
	}
	return r
}

// decMap reads an object of values of f into a new map; a key given twice
// keeps its last value.
func decMap[T any](r Reader, p *map[string]T, f Form[T]) Reader {
	if null, ok := r.open('{'); null || !ok {
		if null {
			*p = nil
		}
		return r
	}
	m := make(map[string]T)
	if r.eat('}') {
		*p = m
		return r.shallower()
	}
	for !r.slow {
		var k string
		if r = decString(r, &k); !r.eat(':') {
			r.giveUp()
			return r
		}
		v := new(T)
		r = f.Dec(r, v)
		m[k] = *v
		if r.eat('}') {
			*p = m
			return r.shallower()
		}
		if !r.eat(',') {
			r.giveUp()
		}
	}
	return r
}

// open reads null, or the opening c of a container and counts its depth.
func (r *Reader) open(c byte) (null, ok bool) {
	if r.null() {
		return true, false
	}
	if !r.eat(c) {
		return false, r.giveUp()
	}
	return false, r.deeper()
}

// deeper counts one level of nesting; past encoding/json's limit the
// reference reports the error.
func (r *Reader) deeper() bool {
	if r.depth++; r.depth > maxDepth {
		return r.giveUp()
	}
	return true
}

// shallower leaves a level of nesting.
func (r Reader) shallower() Reader {
	r.depth--
	return r
}

// decString reads a string; null leaves p unchanged. A string with escapes
// or bytes beyond ASCII is unquoted as encoding/json unquotes it.
func decString[T ~string](r Reader, p *T) Reader {
	if r.null() {
		return r
	}
	span, plain, ok := r.stringSpan()
	switch {
	case !ok:
	case plain:
		*p = T(span[1 : len(span)-1])
	default:
		var buf [128]byte
		*p = T(unquote(buf[:0], span[1:len(span)-1]))
	}
	return r
}

func decBool(r Reader, p *bool) Reader {
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
	return r
}

// decInt reads an integer that fits T; a fraction, an exponent or too
// large a value is encoding/json's to refuse.
func decInt[T int32 | int64](r Reader, p *T) Reader {
	if r.null() {
		return r
	}
	span, integer, ok := r.number()
	if !ok || !integer {
		r.giveUp()
		return r
	}
	n, err := strconv.ParseInt(string(span), 10, int(unsafe.Sizeof(*p))*8)
	if err != nil {
		r.giveUp()
		return r
	}
	*p = T(n)
	return r
}

func decFloat[T float32 | float64](r Reader, p *T) Reader {
	if r.null() {
		return r
	}
	span, _, ok := r.number()
	if !ok {
		return r
	}
	f, err := strconv.ParseFloat(string(span), int(unsafe.Sizeof(*p))*8)
	if err != nil {
		r.giveUp()
		return r
	}
	*p = T(f)
	return r
}

// decTime reads as time.Time.UnmarshalJSON does, which encoding/json calls.
func decTime(r Reader, p *time.Time) Reader {
	if span, ok := r.skip(); ok && p.UnmarshalJSON(span) != nil {
		r.giveUp()
	}
	return r
}

// decRecord reads a nested record through its own decoder; null leaves it
// unchanged, as encoding/json leaves it.
func decRecord[T any, P interface {
	*T
	Unmarshaler
}](r Reader, p *T) Reader {
	if r.null() {
		return r
	}
	if r.peek() != '{' {
		r.giveUp()
		return r
	}
	if span, ok := r.skip(); ok && P(p).UnmarshalAcemqJSON(span) != nil {
		r.giveUp()
	}
	return r
}

// decNested reads a nested record through its field reader; null leaves it
// unchanged, as encoding/json leaves it. The record is zero here: the fast
// path runs on a zero destination, reads each field once and fills fresh
// elements, so the nested record needs no check of its own.
func decNested[T any](r Reader, p *T, fields Fields[T], required []int) Reader {
	if r.null() || !r.deeper() {
		return r
	}
	r, seen, ok := readObject(r, p, fields)
	if ok && !seen.all(required) {
		r.giveUp()
	}
	return r.shallower()
}

// decReflect reads one value with encoding/json.
func decReflect[T any](r Reader, p *T) Reader {
	if span, ok := r.skip(); ok && json.Unmarshal(span, p) != nil {
		r.giveUp()
	}
	return r
}

func decUnion[T any](r Reader, p *T, dec func(json.RawMessage) (T, error)) Reader {
	span, ok := r.skip()
	if !ok {
		return r
	}
	v, err := dec(span)
	if err != nil {
		r.giveUp()
		return r
	}
	*p = v
	return r
}

func decVia[T any](r Reader, p *T, f acemqimpl.JSONForm[T]) Reader {
	if span, ok := r.skip(); ok && f.Bind(p).UnmarshalJSON(span) != nil {
		r.giveUp()
	}
	return r
}
