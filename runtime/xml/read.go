package xml

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
)

// reader writes the JSON form of parsed XML, reading each element as the Go
// type it fills wants it: XML has no types, so "4250" is a number for an
// int64 field and a string for a string field.
type reader struct {
	buf bytes.Buffer
	err error // the first element that cannot read as its type
}

// fail records the first reason the body cannot read as its type.
func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// value writes e as a value of Go type t (nil: unknown); quoted is a json
// tag's ",string" option.
func (r *reader) value(e *element, t reflect.Type, quoted bool) {
	t = deref(t)
	if t == nil || t.Kind() == reflect.Interface {
		r.untyped(e)
		return
	}
	byJSON := implements(t, jsonUnmarshalerType)
	if !byJSON && implements(t, textUnmarshalerType) {
		r.text(e)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		r.structValue(e, t)
	case reflect.Bool:
		r.boolean(e, quoted)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		r.number(e, quoted)
	case reflect.Slice, reflect.Array:
		if isList(t) {
			r.array(e.children, t.Elem())
			return
		}
		r.str(e.text) // []byte: base64, as JSON writes it
	case reflect.Map:
		r.mapValue(e, t)
	default:
		r.str(e.text)
	}
}

// structValue writes e as a struct: its children as the fields they name,
// unless e is text for a type that reads itself from a string (time.Time).
func (r *reader) structValue(e *element, t reflect.Type) {
	selfRead := implements(t, jsonUnmarshalerType) || implements(t, textUnmarshalerType)
	switch {
	case selfRead && e.leaf() && len(bytes.TrimSpace(e.text)) > 0:
		r.str(e.text)
	case selfRead && e.leaf() && implements(t, textUnmarshalerType):
		r.buf.WriteString("null") // an empty time: the zero value
	case !selfRead && len(bytes.TrimSpace(e.text)) > 0:
		r.fail(fmt.Errorf("<%s> holds text where a %s's elements belong", e.name, t))
		r.buf.WriteString("null")
	default:
		r.fields(e, t)
	}
}

// fields writes e's children as an object of struct type t's JSON keys;
// children no field names are dropped, as encoding/json drops unknown keys.
func (r *reader) fields(e *element, t reflect.Type) {
	fs := fieldsOf(t)
	r.buf.WriteByte('{')
	n := 0
	for _, g := range groups(e.children) {
		f, ok := fs.byXML[g.name]
		if !ok {
			continue
		}
		r.key(n, f.jsonKey)
		n++
		if isList(f.typ) {
			item := deref(f.typ).Elem()
			r.array(unwrap(g, item), item)
		} else {
			r.value(r.one(g), f.typ, f.quoted)
		}
	}
	r.buf.WriteByte('}')
}

// mapValue writes e's children as an object keyed by their names.
func (r *reader) mapValue(e *element, t reflect.Type) {
	r.buf.WriteByte('{')
	for i, g := range groups(e.children) {
		r.key(i, g.name)
		switch elem := deref(t.Elem()); {
		case elem.Kind() == reflect.Interface:
			r.untypedGroup(g)
		case isList(elem):
			r.array(unwrap(g, elem.Elem()), elem.Elem())
		default:
			r.value(r.one(g), elem, false)
		}
	}
	r.buf.WriteByte('}')
}

// one returns the element of a group that fills one value; a name written
// more than once is refused rather than read as its last.
func (r *reader) one(g *group) *element {
	if len(g.elems) > 1 {
		r.fail(fmt.Errorf("<%s> appears %d times where it holds one value", g.name, len(g.elems)))
	}
	return g.elems[len(g.elems)-1]
}

// untyped writes e for a destination of no particular type: text as a
// string, children as an object, a repeated name or a wrapper of one name
// as a list.
func (r *reader) untyped(e *element) {
	if e.leaf() {
		r.str(e.text)
		return
	}
	r.buf.WriteByte('{')
	for i, g := range groups(e.children) {
		r.key(i, g.name)
		r.untypedGroup(g)
	}
	r.buf.WriteByte('}')
}

// untypedGroup writes the children of one name for a destination of no
// particular type: a list when the name repeats or wraps items of its own
// name, else the one value.
func (r *reader) untypedGroup(g *group) {
	switch {
	case len(g.elems) > 1:
		r.array(g.elems, nil)
	case wraps(g.elems[0], g.name):
		r.array(g.elems[0].children, nil)
	default:
		r.untyped(g.elems[0])
	}
}

func (r *reader) array(items []*element, item reflect.Type) {
	r.buf.WriteByte('[')
	for i, e := range items {
		if i > 0 {
			r.buf.WriteByte(',')
		}
		r.value(e, item, false)
	}
	r.buf.WriteByte(']')
}

// boolean writes e's text as a JSON boolean (1 and 0 too, as xs:boolean
// allows); empty text is null, which leaves the zero value.
func (r *reader) boolean(e *element, quoted bool) {
	s := string(bytes.TrimSpace(e.text))
	b, err := strconv.ParseBool(s)
	switch {
	case s == "":
		r.buf.WriteString("null")
	case err != nil:
		r.str([]byte(s)) // encoding/json refuses it, naming the field
	case quoted:
		r.str([]byte(strconv.FormatBool(b)))
	default:
		r.buf.WriteString(strconv.FormatBool(b))
	}
}

// number writes e's text as a JSON number; empty text is null, which leaves
// the zero value.
func (r *reader) number(e *element, quoted bool) {
	s := bytes.TrimSpace(e.text)
	switch {
	case len(s) == 0:
		r.buf.WriteString("null")
	case !isNumber(s) || quoted:
		r.str(s) // for a number: encoding/json refuses it, naming the field
	default:
		r.buf.Write(s)
	}
}

// text writes e's character data as a JSON string.
func (r *reader) text(e *element) { r.str(e.text) }

func (r *reader) str(b []byte) {
	s, _ := json.Marshal(string(b)) // a string always marshals
	r.buf.Write(s)
}

// key writes the i-th key of an object.
func (r *reader) key(i int, k string) {
	if i > 0 {
		r.buf.WriteByte(',')
	}
	r.str([]byte(k))
	r.buf.WriteByte(':')
}

// group is the children of one element that share a name, in order.
type group struct {
	name  string
	elems []*element
}

// groups gathers children by name, in the order each name first appears.
func groups(children []*element) []*group {
	var out []*group
	at := map[string]*group{}
	for _, c := range children {
		g, ok := at[c.name]
		if !ok {
			g = &group{name: c.name}
			at[c.name] = g
			out = append(out, g)
		}
		g.elems = append(g.elems, c)
	}
	return out
}

// unwrap returns the items of a list field written as g, in either shape:
// Go's repeated siblings (<lines>a</lines><lines>b</lines>) are the items
// themselves; Jackson's one wrapper element around items of the same name
// (<lines><lines>a</lines><lines>b</lines></lines>) holds them, and an empty
// wrapper (<lines/>) is an empty list. A wrapper is not unwrapped when the
// item type has a field of the list's own name, since an item alone reads
// the same.
func unwrap(g *group, item reflect.Type) []*element {
	if len(g.elems) != 1 {
		return g.elems
	}
	e := g.elems[0]
	if e.leaf() && len(e.text) == 0 {
		return nil
	}
	if wraps(e, g.name) && !hasField(item, g.name) {
		return e.children
	}
	return g.elems
}

// wraps reports whether e holds only elements named name.
func wraps(e *element, name string) bool {
	for _, c := range e.children {
		if c.name != name {
			return false
		}
	}
	return !e.leaf()
}

// hasField reports whether struct type t has a field whose element is name.
func hasField(t reflect.Type, name string) bool {
	t = deref(t)
	if t == nil || t.Kind() != reflect.Struct {
		return false
	}
	_, ok := fieldsOf(t).byXML[name]
	return ok
}

// isList reports whether a value of type t is written as repeated elements:
// a slice or array, except []byte (base64 text) and types that read
// themselves from text.
func isList(t reflect.Type) bool {
	t = deref(t)
	switch {
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		return false
	case t.Kind() != reflect.Slice && t.Kind() != reflect.Array:
		return false
	}
	return !implements(t, textUnmarshalerType) && !implements(t, jsonUnmarshalerType)
}

// implements reports whether t or *t implements iface.
func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || reflect.PointerTo(t).Implements(iface)
}

// isNumber reports whether s is a JSON number.
func isNumber(s []byte) bool {
	return len(s) > 0 && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && json.Valid(s)
}
