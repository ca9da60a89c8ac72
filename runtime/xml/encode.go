package xml

import (
	"bytes"
	"encoding/json"
	stdxml "encoding/xml"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"unicode"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/ordjson"
)

var (
	// errNoRoot is why a payload without a type name is refused.
	errNoRoot = errors.New("XML needs a root element, and a payload of a type with no name (a map, a slice, an anonymous struct) gives it none; send a named type")
	// errListOfLists is why a list directly inside a list is refused.
	errListOfLists = errors.New("XML writes a list as repeated elements, so a list inside a list would merge into one")
	// errNil is why a nil payload is refused.
	errNil = errors.New("a nil payload has no XML form")
)

// Encode writes payload as one XML element with no declaration and no
// indentation, as Go's xml.Marshal does: the root element is named by the
// payload's XMLName field or else its type's name, each field is a child
// element named by its xml tag, else its json tag, and a list is one element
// per item. Values are written in their JSON form (MarshalJSON, json tags and
// omitempty apply), so a decimal, a date or a duration reads the same in XML
// as in JSON. A payload XML cannot carry is a fatal error.
func (Codec) Encode(payload any) ([]byte, error) {
	b, err := encode(payload)
	if err != nil {
		return nil, acemq.Fatalf("acemq: a %T cannot be written as XML: %w", payload, err)
	}
	return b, nil
}

func encode(payload any) ([]byte, error) {
	if payload == nil {
		return nil, errNil
	}
	t := reflect.TypeOf(payload)
	root := rootName(t)
	if root == "" || deref(t).Kind() == reflect.Map || deref(t).Kind() == reflect.Slice || deref(t).Kind() == reflect.Array {
		return nil, errNoRoot
	}
	tree, err := ordjson.Tree(payload, nil)
	if err != nil {
		return nil, err
	}
	if tree == nil {
		return nil, errNil
	}
	w := &writer{}
	if err := w.element(root, tree, t); err != nil {
		return nil, err
	}
	return w.buf.Bytes(), nil
}

// writer writes XML elements from a JSON tree, naming members by the Go type
// the tree was written from.
type writer struct{ buf bytes.Buffer }

// element writes v as an element named name; t is v's Go type, or nil.
func (w *writer) element(name string, v any, t reflect.Type) error {
	if !validName(name) {
		return fmt.Errorf("%q is not an XML element name", name)
	}
	w.buf.WriteString("<" + name + ">")
	switch x := v.(type) {
	case *ordjson.Object:
		for i, key := range x.Keys {
			if err := w.member(key, x.Vals[i], t); err != nil {
				return err
			}
		}
	case []any:
		return errListOfLists
	case string:
		escape(&w.buf, x)
	case json.Number:
		w.buf.WriteString(string(x))
	case bool:
		w.buf.WriteString(strconv.FormatBool(x))
	}
	w.buf.WriteString("</" + name + ">")
	return nil
}

// member writes an object's member key: nothing for null, one element per
// item for a list, one element otherwise.
func (w *writer) member(key string, v any, parent reflect.Type) error {
	name, t, omitEmpty, skip := memberOf(key, parent)
	if skip || v == nil || (omitEmpty && empty(v)) {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return w.element(name, v, t)
	}
	item := elemType(t)
	for _, x := range list {
		if x == nil {
			continue
		}
		if err := w.element(name, x, item); err != nil {
			return err
		}
	}
	return nil
}

// memberOf is how member key of a value of type parent is written: its
// element name, its Go type (nil when unknown), and whether it is omitted
// when empty or always.
func memberOf(key string, parent reflect.Type) (string, reflect.Type, bool, bool) {
	parent = deref(parent)
	if parent == nil {
		return key, nil, false, false
	}
	switch parent.Kind() {
	case reflect.Struct:
		if parent == xmlNameType {
			return key, nil, false, false
		}
		fs := fieldsOf(parent)
		f, ok := fs.byJSON[key]
		if !ok {
			return key, nil, false, fs.skipped[key]
		}
		return f.xmlName, f.typ, f.omitEmpty, false
	case reflect.Map:
		return key, parent.Elem(), false, false
	}
	return key, nil, false, false
}

// elemType is the item type of list type t, or nil.
func elemType(t reflect.Type) reflect.Type {
	t = deref(t)
	if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		return t.Elem()
	}
	return nil
}

// empty reports whether JSON value v is what omitempty leaves out.
func empty(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case bool:
		return !x
	case json.Number:
		f, err := x.Float64()
		return err == nil && f == 0
	case []any:
		return len(x) == 0
	case *ordjson.Object:
		return len(x.Keys) == 0
	}
	return v == nil
}

// escape writes s as XML character data, as xml.Marshal writes a string
// field (newlines and tabs as character references).
func escape(buf *bytes.Buffer, s string) {
	_ = stdxml.EscapeText(buf, []byte(s)) // a bytes.Buffer does not fail
}

// validName reports whether s is an XML element name this codec writes:
// a letter or underscore, then letters, digits, '-', '_' or '.'.
func validName(s string) bool {
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || r == '_':
		case i > 0 && (unicode.IsDigit(r) || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return s != ""
}
