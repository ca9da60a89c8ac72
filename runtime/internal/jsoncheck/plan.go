// Package jsoncheck measures a JSON body before encoding/json decodes it
// (depth, values) and, for the records generated code declares, checks that
// every field the contract requires is present: encoding/json leaves a
// missing field at its zero value, so {} or null would reach a handler as an
// empty message. It reads the body once and allocates nothing on the way
// (the plan of each Go type is built once and cached).
package jsoncheck

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// plan is what the check knows of a Go type: for a generated record, its
// fields by JSON key; for a list or map, its items' plan.
type plan struct {
	name     string           // the Go type, for errors
	fields   map[string]*slot // by JSON key; nil for a type that is not a record
	ordered  []*slot          // fields by index, for the missing-field error
	required int              // how many fields are required
	elem     *plan            // a list's items or a map's values; nil when none applies
}

// slot is one record field.
type slot struct {
	key      string
	index    int  // its bit in the present set
	required bool // the contract gives it no default and does not allow null
	nullOK   bool // null counts as present: the Go type is nil-able (pointer, slice, map, interface)
	child    *plan
}

// schemaSource is the method generated records carry: their Avro schema
// with defaults, which says which fields are required.
type schemaSource interface{ AvroFullSchema() string }

var (
	plans         sync.Map // reflect.Type → *plan (nil *plan: nothing to check)
	schemaType    = reflect.TypeFor[schemaSource]()
	unmarshalType = reflect.TypeFor[json.Unmarshaler]()
)

// planOf returns t's plan, nil when nothing in t is checked.
func planOf(t reflect.Type) *plan {
	if v, ok := plans.Load(t); ok {
		return v.(*plan)
	}
	p := build(t, map[reflect.Type]*plan{})
	v, _ := plans.LoadOrStore(t, p)
	return v.(*plan)
}

// build makes t's plan; building holds the plans under construction, so a
// recursive type refers to itself.
func build(t reflect.Type, building map[reflect.Type]*plan) *plan {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return nil
	}
	if p, ok := building[t]; ok {
		return p
	}
	switch t.Kind() {
	case reflect.Struct:
		return buildRecord(t, building)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 || implements(t, unmarshalType) {
			return nil
		}
		return container(t, building)
	case reflect.Map:
		return container(t, building)
	}
	return nil
}

func container(t reflect.Type, building map[reflect.Type]*plan) *plan {
	p := &plan{name: t.String()}
	building[t] = p
	if p.elem = build(t.Elem(), building); p.elem == nil {
		return nil
	}
	return p
}

// buildRecord plans a generated record (one with AvroFullSchema); any other
// struct is not checked, nor is what it holds.
func buildRecord(t reflect.Type, building map[reflect.Type]*plan) *plan {
	if !implements(t, schemaType) {
		return nil
	}
	p := &plan{name: t.String(), fields: map[string]*slot{}}
	building[t] = p
	required := requiredFields(reflect.New(t).Interface().(schemaSource).AvroFullSchema())
	for i := range t.NumField() {
		addField(p, t.Field(i), required, building)
	}
	return p
}

func addField(p *plan, sf reflect.StructField, required map[string]bool, building map[reflect.Type]*plan) {
	key, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
	if !sf.IsExported() || key == "-" && opts == "" {
		return
	}
	if key == "" {
		key = sf.Name
	}
	k := sf.Type.Kind()
	s := &slot{key: key, index: len(p.ordered), child: build(sf.Type, building),
		nullOK:   k == reflect.Pointer || k == reflect.Slice || k == reflect.Map || k == reflect.Interface,
		required: required[key] && !strings.Contains(","+opts+",", ",omitempty,")}
	if s.required {
		p.required++
	}
	p.fields[key] = s
	p.ordered = append(p.ordered, s)
}

// requiredFields returns the names of the fields an Avro record schema gives
// no default and whose type is not a union with null.
func requiredFields(schema string) map[string]bool {
	var rec struct {
		Fields []map[string]json.RawMessage `json:"fields"`
	}
	if json.Unmarshal([]byte(schema), &rec) != nil {
		return nil
	}
	out := map[string]bool{}
	for _, f := range rec.Fields {
		var name string
		if json.Unmarshal(f["name"], &name) != nil || name == "" {
			continue
		}
		if _, hasDefault := f["default"]; !hasDefault && !nullable(f["type"]) {
			out[name] = true
		}
	}
	return out
}

// nullable reports whether an Avro type is a union holding null.
func nullable(t json.RawMessage) bool {
	var union []json.RawMessage
	if json.Unmarshal(t, &union) != nil {
		return false
	}
	for _, u := range union {
		if string(u) == `"null"` {
			return true
		}
	}
	return false
}

func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || reflect.PointerTo(t).Implements(iface)
}

// field returns p's field named key, matched as encoding/json matches: the
// exact key, else the first that equals it ignoring case.
func (p *plan) field(key []byte) *slot {
	if s, ok := p.fields[string(key)]; ok {
		return s
	}
	for _, s := range p.ordered {
		if strings.EqualFold(s.key, string(key)) {
			return s
		}
	}
	return nil
}
