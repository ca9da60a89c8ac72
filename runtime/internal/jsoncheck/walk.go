package jsoncheck

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// Limit names the limit a body passed.
type Limit int

// The limits Check applies.
const (
	Depth Limit = iota + 1
	Elements
)

// LimitError is a body over a limit.
type LimitError struct{ Limit Limit }

func (e *LimitError) Error() string {
	if e.Limit == Depth {
		return "json: nesting too deep"
	}
	return "json: too many values"
}

// Result is what Check finds: a body over a limit (Over), or a record
// missing a field the contract requires (Missing). Both nil: nothing to
// refuse, which is not to say encoding/json will read it.
type Result struct {
	Over    *LimitError
	Missing error
}

// Check walks data as JSON of Go type t (nil: any), refusing nesting deeper
// than maxDepth or more than maxElements values (negative: no limit) and,
// in a generated record, a required field that is absent (or null where its
// Go type cannot hold null), a field given twice, and null where the whole
// message is a record that requires fields. Malformed JSON stops the walk
// quietly: encoding/json reports it better.
func Check(data []byte, t reflect.Type, maxDepth, maxElements int) Result {
	return check(walker{b: data, maxDepth: maxDepth, maxElements: maxElements}, t)
}

// Converted checks the JSON another codec (XML, TOML) made of a body for the
// required fields of a generated record, without limits. Those formats
// cannot write null or an empty list apart from none at all, so a field
// whose Go type holds nil (pointer, slice, map) may be absent.
func Converted(data []byte, t reflect.Type) error {
	return check(walker{b: data, maxDepth: -1, maxElements: -1, nilMayBeAbsent: true}, t).Missing
}

// Requires reports whether t (a pointer to it, a list or map of it) is a
// generated record with fields to check.
func Requires(t reflect.Type) bool { return planOf(t) != nil }

func check(w walker, t reflect.Type) Result {
	p := planOf(t)
	w.value(p, 0)
	if w.over == nil && w.missing == nil && p != nil && p.required > 0 && w.topNull {
		w.missing = fmt.Errorf("the message is null where a %s belongs", p.name)
	}
	return Result{Over: w.over, Missing: w.missing}
}

// walker reads JSON structurally; the first limit passed, or the first
// problem with the bytes, stops it.
type walker struct {
	b                     []byte
	i                     int
	maxDepth, maxElements int
	n                     int
	over                  *LimitError
	missing               error
	topNull               bool
	stop                  bool
	nilMayBeAbsent        bool
}

func (w *walker) halt() { w.stop, w.i = true, len(w.b) }

func (w *walker) ws() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// value reads one value at depth, checking it against p.
func (w *walker) value(p *plan, depth int) {
	w.ws()
	if w.stop || w.i >= len(w.b) {
		w.halt()
		return
	}
	w.n++
	if w.maxElements >= 0 && w.n > w.maxElements {
		w.over = &LimitError{Limit: Elements}
		w.halt()
		return
	}
	switch w.b[w.i] {
	case '{':
		w.object(p, depth+1)
	case '[':
		w.array(p, depth+1)
	case '"':
		w.str()
	default:
		if depth == 0 && w.literal("null") {
			w.topNull = true
		}
		w.scalar()
	}
}

// deeper reports (and records) whether depth is over the limit.
func (w *walker) deeper(depth int) bool {
	if w.maxDepth >= 0 && depth > w.maxDepth {
		w.over = &LimitError{Limit: Depth}
		w.halt()
		return true
	}
	return false
}

func (w *walker) object(p *plan, depth int) {
	if w.deeper(depth) {
		return
	}
	w.i++ // {
	var present [4]uint64
	for !w.stop {
		w.ws()
		if w.i < len(w.b) && w.b[w.i] == '}' {
			w.i++
			w.checkRequired(p, &present)
			return
		}
		key, ok := w.key()
		if !ok {
			return
		}
		w.member(p, key, &present, depth)
		if !w.next('}') {
			w.checkRequired(p, &present)
			return
		}
	}
}

// member reads the value of key in an object of plan p.
func (w *walker) member(p *plan, key []byte, present *[4]uint64, depth int) {
	var s *slot
	if p != nil && p.fields != nil {
		s = p.field(key)
	} else if p != nil {
		w.value(p.elem, depth) // a map's value
		return
	}
	if s == nil {
		w.value(nil, depth)
		return
	}
	w.ws()
	null := w.literal("null")
	if s.index < 256 && (!null || s.nullOK) {
		word, bit := s.index/64, uint64(1)<<(s.index%64)
		if present[word]&bit != 0 && w.missing == nil {
			w.missing = fmt.Errorf("field %q of %s is given twice", s.key, p.name)
		}
		present[word] |= bit
	}
	w.value(s.child, depth)
}

// checkRequired records the first required field of p not in present.
func (w *walker) checkRequired(p *plan, present *[4]uint64) {
	if p == nil || p.required == 0 || w.missing != nil {
		return
	}
	for _, s := range p.ordered {
		if s.required && !(w.nilMayBeAbsent && s.nullOK) && s.index < 256 && present[s.index/64]&(uint64(1)<<(s.index%64)) == 0 {
			w.missing = fmt.Errorf("%s requires field %q, which is missing or null", p.name, s.key)
			return
		}
	}
}

func (w *walker) array(p *plan, depth int) {
	if w.deeper(depth) {
		return
	}
	w.i++ // [
	var item *plan
	if p != nil && p.fields == nil {
		item = p.elem
	}
	w.ws()
	if w.i < len(w.b) && w.b[w.i] == ']' {
		w.i++
		return
	}
	for !w.stop {
		w.value(item, depth)
		if !w.next(']') {
			return
		}
	}
}

// next reads the comma between members or items, reporting whether another
// follows; it reads the closing bracket too.
func (w *walker) next(closing byte) bool {
	w.ws()
	if w.i >= len(w.b) {
		w.halt()
		return false
	}
	switch w.b[w.i] {
	case ',':
		w.i++
		return true
	case closing:
		w.i++
		return false
	}
	w.halt()
	return false
}

// key reads an object key and its colon, returning the key's raw bytes
// (escapes decoded when it has any).
func (w *walker) key() ([]byte, bool) {
	if w.i >= len(w.b) || w.b[w.i] != '"' {
		w.halt()
		return nil, false
	}
	start := w.i
	escaped := w.str()
	raw := w.b[start+1 : max(start+1, w.i-1)]
	if escaped {
		var s string
		if json.Unmarshal(w.b[start:w.i], &s) != nil {
			w.halt()
			return nil, false
		}
		raw = []byte(s)
	}
	w.ws()
	if w.i >= len(w.b) || w.b[w.i] != ':' {
		w.halt()
		return nil, false
	}
	w.i++
	return raw, true
}

// str skips the string at w.i, reporting whether it holds an escape.
func (w *walker) str() bool {
	escaped := false
	for w.i++; w.i < len(w.b); w.i++ {
		switch w.b[w.i] {
		case '\\':
			escaped = true
			w.i++
		case '"':
			w.i++
			return escaped
		}
	}
	w.halt()
	return escaped
}

// scalar skips a number, true, false or null.
func (w *walker) scalar() {
	start := w.i
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ',', ']', '}', ' ', '\t', '\n', '\r', '{', '[', '"', ':':
			if w.i == start {
				w.halt()
			}
			return
		}
		w.i++
	}
}

// literal reports whether lit starts at w.i.
func (w *walker) literal(lit string) bool {
	return len(w.b)-w.i >= len(lit) && string(w.b[w.i:w.i+len(lit)]) == lit
}
