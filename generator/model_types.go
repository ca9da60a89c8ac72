package generator

import (
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// primitives are the YAML spellings of primitive and logical types.
var primitives = map[string]bool{"boolean": true, "int": true, "long": true, "float": true,
	"double": true, "string": true, "bytes": true, "uuid": true, "date": true,
	"time-millis": true, "time-micros": true, "timestamp-millis": true, "timestamp-micros": true}

var decimalRE = regexp.MustCompile(`^decimal\(\s*([0-9]+)\s*,\s*([0-9]+)\s*\)$`)

// declareTypes creates a named type per entry of types:, so fields can refer
// to types declared later in the file, or in other files of the run.
func (r *resolver) declareTypes() {
	for _, t := range r.f.Types {
		r.declareType(t)
	}
}

func (r *resolver) declareType(t *syntaxType) *recordModel {
	rec := r.newRecord(t.Name, t.Doc.V, t.Deprecated.V)
	if t.Namespace != "" {
		rec.FullName = t.Namespace + "." + t.Name.V
	}
	rec.Aliases = t.Aliases
	r.shape(rec, t)
	rec.Go = r.binding(t)
	if _, dup := r.records[rec.Name]; !dup {
		r.records[rec.Name] = rec
	}
	r.w.declare(rec)
	r.w.declared[rec] = true
	r.dom.Records = append(r.dom.Records, rec)
	if rec.Shape == recordShape {
		r.pending = append(r.pending, pendingRecord{rec, t.Fields})
	}
	return rec
}

// declare records rec under its Avro full name, the first declaration winning.
func (w *world) declare(rec *recordModel) {
	if _, dup := w.fullNames[rec.FullName]; !dup {
		w.fullNames[rec.FullName] = rec
	}
}

// shape reads whether t is a record, an enum or a fixed type.
func (r *resolver) shape(rec *recordModel, t *syntaxType) {
	n := 0
	for _, set := range []bool{t.FieldsSet, t.EnumSet, t.Fixed.Given} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		r.d.errorf(t.Name.P, "type %s needs fields, enum or fixed", t.Name.V)
	case n > 1:
		r.d.errorf(t.Name.P, "type %s: fields, enum and fixed exclude each other", t.Name.V)
	case t.EnumSet:
		r.enum(rec, t)
	case t.Fixed.Given:
		r.fixed(rec, t)
	}
	if t.Default.Given && !t.EnumSet {
		r.d.errorf(t.Default.P, "type %s: default names the symbol an enum falls back to; %s is not an enum", t.Name.V, t.Name.V)
	}
}

func (r *resolver) enum(rec *recordModel, t *syntaxType) {
	rec.Shape = enumShape
	seen := map[string]bool{}
	for _, s := range t.Enum {
		switch {
		case !fieldNameRE.MatchString(s.V):
			r.d.errorf(s.P, "enum %s: bad symbol %q: letters, digits and '_', not starting with a digit", t.Name.V, s.V)
		case seen[s.V]:
			r.d.errorf(s.P, "enum %s: symbol %s is listed twice", t.Name.V, s.V)
		}
		seen[s.V] = true
		rec.Symbols = append(rec.Symbols, s.V)
	}
	if len(rec.Symbols) == 0 {
		r.d.errorf(t.Name.P, "enum %s has no symbols", t.Name.V)
	}
	if t.Default.Set {
		rec.EnumDefault = t.Default.V
		if !seen[t.Default.V] {
			r.d.errorf(t.Default.P, "enum %s: default %q is not one of its symbols", t.Name.V, t.Default.V)
		}
	}
}

func (r *resolver) fixed(rec *recordModel, t *syntaxType) {
	rec.Shape, rec.Size = fixedShape, t.Fixed.V
	if t.Fixed.Set && t.Fixed.V < 1 {
		r.d.errorf(t.Fixed.P, "type %s: a fixed size is a positive number of bytes", t.Name.V)
	}
}

// resolveTypes resolves the fields of every record declared so far.
func (r *resolver) resolveTypes() {
	for _, p := range r.pending {
		for _, sf := range p.fields {
			p.rec.Fields = append(p.rec.Fields, r.field(p.rec, sf))
		}
	}
}

func (r *resolver) field(rec *recordModel, s *syntaxField) *field {
	f := &field{Pos: s.Name.P, Name: s.Name.V, GoName: GoName(s.Name.V),
		Doc: strings.TrimSpace(s.Doc.V), Deprecated: strings.TrimSpace(s.Deprecated.V), Aliases: s.Aliases}
	f.Type = r.typeOf(s.Type, fieldTypeName(rec, f), true)
	if f.Type != nil && (f.Type.Kind == optionalKind || f.Type.Kind == unionKind && f.Type.Nullable) {
		f.Default, f.HasDefault = nil, true
	}
	if s.Default != nil && f.Type != nil {
		r.defaults = append(r.defaults, func() { r.fieldDefault(f, s) })
	}
	return f
}

func (r *resolver) fieldDefault(f *field, s *syntaxField) {
	if (f.Type.Kind == optionalKind || f.Type.Kind == unionKind && f.Type.Nullable) && s.Default.Kind != valueNull {
		r.d.errorf(s.Default.P, "default of field %s: an optional field's default is null", f.Name)
		return
	}
	v, ok := defaults{r.d}.value(s.Default, f.Type, "default of field "+f.Name)
	f.Default, f.HasDefault = v, ok
}

// typeOf resolves a type expression; nil after reporting an unknown type.
// hint names the Go types a union or an inline fixed type needs; top is
// false inside arrays, maps and optionals.
func (r *resolver) typeOf(e *typeExpr, hint string, top bool) *typ {
	if e == nil {
		return nil
	}
	switch e.Op {
	case exprOptional:
		return r.optional(e, hint)
	case exprArray, exprMap:
		elem := r.typeOf(e.Elem, hint, false)
		if elem == nil {
			return nil
		}
		return &typ{Kind: map[exprOp]typeKind{exprArray: arrayKind, exprMap: mapKind}[e.Op], Elem: elem}
	case exprUnion:
		return r.union(e, hint, top)
	case exprFixed:
		return r.inlineFixed(e, hint)
	}
	return r.named(e)
}

func (r *resolver) optional(e *typeExpr, hint string) *typ {
	if e.Elem.Op == exprOptional {
		r.d.errorf(e.P, "a type is optional once: drop the second '?'")
		return nil
	}
	elem := r.typeOf(e.Elem, hint, false)
	if elem == nil {
		return nil
	}
	return &typ{Kind: optionalKind, Elem: elem}
}

// inlineFixed declares {fixed: N} written in a field as a named type, since
// Avro fixed types have names: <Record><Field>.
func (r *resolver) inlineFixed(e *typeExpr, hint string) *typ {
	rec := r.newRecord(sStr{V: hint, P: e.P}, "", "")
	rec.Shape, rec.Size = fixedShape, e.Size
	r.w.declare(rec)
	r.dom.Records = append(r.dom.Records, rec)
	return &typ{Kind: namedKind, Record: rec}
}

func (r *resolver) named(e *typeExpr) *typ {
	switch {
	case primitives[e.Name]:
		return &typ{Kind: primitiveKind, Prim: e.Name}
	case r.records[e.Name] != nil:
		return &typ{Kind: namedKind, Record: r.records[e.Name]}
	case strings.HasPrefix(e.Name, "decimal"):
		return r.decimal(e)
	case strings.Contains(e.Name, "."):
		return r.qualified(e)
	}
	r.d.errorf(e.P, "unknown type %q (expected a primitive such as string or long, or a type declared under types:)", e.Name)
	return nil
}

func (r *resolver) decimal(e *typeExpr) *typ {
	m := decimalRE.FindStringSubmatch(e.Name)
	if m == nil {
		r.d.errorf(e.P, "bad decimal type %q: write decimal(P,S), such as decimal(10,2)", e.Name)
		return nil
	}
	p, errP := strconv.Atoi(m[1])
	s, errS := strconv.Atoi(m[2])
	if errP != nil || errS != nil || p < 1 || p > 1000 || s > p {
		r.d.errorf(e.P, "bad decimal type %q: precision P from 1 to 1000 and scale S from 0 to P", e.Name)
		return nil
	}
	return &typ{Kind: decimalKind, Precision: p, Scale: s}
}

// qualified resolves alias.Type through imports:, or an Avro full name
// declared anywhere in the run.
func (r *resolver) qualified(e *typeExpr) *typ {
	if rec := r.w.fullNames[e.Name]; rec != nil {
		return &typ{Kind: namedKind, Record: rec}
	}
	alias, name, _ := strings.Cut(e.Name, ".")
	imp, ok := r.importOf(alias)
	if !ok && r.f.Avro {
		r.d.errorf(e.P, "unknown type %q: no schema of this run declares it", e.Name)
		return nil
	}
	if !ok {
		r.d.errorf(e.P, "unknown type %q: %s is not an alias of imports: (nor is %s a full name declared in this run)", e.Name, alias, e.Name)
		return nil
	}
	other := r.w.byPath[imp]
	if other == nil || other.dom == nil {
		r.d.errorf(e.P, "unknown type %q: the file imported as %s (%s) is not part of this run", e.Name, alias, imp)
		return nil
	}
	if rec := other.records[name]; rec != nil {
		return &typ{Kind: namedKind, Record: rec}
	}
	r.d.errorf(e.P, "unknown type %q: %s declares no type %s", e.Name, imp, name)
	return nil
}

// importOf returns the clean path of the file imported as alias.
func (r *resolver) importOf(alias string) (string, bool) {
	for _, imp := range r.f.Imports {
		if imp.Alias.V == alias && imp.Path.Set {
			return cleanPath(path.Join(path.Dir(cleanPath(r.f.Path)), filepath.ToSlash(imp.Path.V))), true
		}
	}
	return "", false
}
