package generator

import (
	"strings"
)

// primitives are the YAML spellings of primitive and logical types.
var primitives = map[string]bool{"boolean": true, "int": true, "long": true, "float": true,
	"double": true, "string": true, "bytes": true, "uuid": true, "date": true,
	"time-millis": true, "time-micros": true, "timestamp-millis": true, "timestamp-micros": true}

// declareTypes creates a record per entry of types:, so fields can refer to
// types declared later in the file.
func (r *resolver) declareTypes() {
	for _, t := range r.f.Types {
		if !t.FieldsSet {
			r.d.errorf(t.Name.P, "type %s has no fields (enum and fixed types are not supported yet)", t.Name.V)
		}
		rec := r.newRecord(t.Name, t.Doc.V, t.Deprecated.V)
		if _, dup := r.records[rec.Name]; !dup {
			r.records[rec.Name] = rec
		}
		r.dom.Records = append(r.dom.Records, rec)
		r.pending = append(r.pending, pendingRecord{rec, t.Fields})
	}
}

// resolveTypes resolves the fields of every record declared so far.
func (r *resolver) resolveTypes() {
	for _, p := range r.pending {
		for _, sf := range p.fields {
			p.rec.Fields = append(p.rec.Fields, r.field(sf))
		}
	}
	for _, resolve := range r.defaults {
		resolve()
	}
}

func (r *resolver) field(s *syntaxField) *Field {
	f := &Field{Pos: s.Name.P, Name: s.Name.V, GoName: GoName(s.Name.V),
		Doc: strings.TrimSpace(s.Doc.V), Deprecated: strings.TrimSpace(s.Deprecated.V), Aliases: s.Aliases}
	f.Type = r.typeOf(s.Type)
	if f.Type != nil && f.Type.Kind == Optional {
		f.Default, f.HasDefault = nil, true
	}
	if s.Default != nil && f.Type != nil {
		r.defaults = append(r.defaults, func() { r.fieldDefault(f, s) })
	}
	return f
}

func (r *resolver) fieldDefault(f *Field, s *syntaxField) {
	y := &yamlDoc{path: r.f.Path, d: r.d}
	if f.Type.Kind == Optional && !isNull(s.Default) {
		r.d.errorf(y.pos(s.Default), "default of field %s: an optional field's default is null", f.Name)
		return
	}
	v, ok := y.defaultValue(s.Default, f.Type, "default of field "+f.Name)
	f.Default, f.HasDefault = v, ok
}

// typeOf resolves a type expression; nil after reporting an unknown type.
func (r *resolver) typeOf(e *typeExpr) *Type {
	if e == nil {
		return nil
	}
	switch e.Op {
	case exprOptional:
		return r.optional(e)
	case exprArray, exprMap:
		elem := r.typeOf(e.Elem)
		if elem == nil {
			return nil
		}
		return &Type{Kind: map[exprOp]TypeKind{exprArray: Array, exprMap: Map}[e.Op], Elem: elem}
	}
	return r.named(e)
}

func (r *resolver) optional(e *typeExpr) *Type {
	if e.Elem.Op == exprOptional {
		r.d.errorf(e.P, "a type is optional once: drop the second '?'")
		return nil
	}
	elem := r.typeOf(e.Elem)
	if elem == nil {
		return nil
	}
	return &Type{Kind: Optional, Elem: elem}
}

func (r *resolver) named(e *typeExpr) *Type {
	switch {
	case primitives[e.Name]:
		return &Type{Kind: Primitive, Prim: e.Name}
	case r.records[e.Name] != nil:
		return &Type{Kind: Named, Record: r.records[e.Name]}
	case strings.HasPrefix(e.Name, "decimal("):
		r.d.errorf(e.P, "type decimal is not supported yet")
	case strings.Contains(e.Name, "."):
		r.d.errorf(e.P, "unknown type %q: imported types (imports:) are not supported yet", e.Name)
	default:
		r.d.errorf(e.P, "unknown type %q (expected a primitive such as string or long, or a type declared under types:)", e.Name)
	}
	return nil
}
