package generator

import (
	"math"
	"slices"

	"github.com/goccy/go-yaml/ast"
)

func isNull(n ast.Node) bool {
	_, ok := unwrap(n).(*ast.NullNode)
	return ok
}

// defaultValue checks a field default against its type and returns it as the
// JSON value Avro expects.
func (y *yamlDoc) defaultValue(n ast.Node, t *Type, what string) (any, bool) {
	switch t.Kind {
	case Optional:
		if !isNull(n) {
			y.wrongType(n, what, "null")
			return nil, false
		}
		return nil, true
	case Array:
		return y.defaultArray(n, t.Elem, what)
	case Map:
		return y.defaultMap(n, t.Elem, what)
	case Named:
		return y.defaultNamed(n, t.Record, what)
	case Decimal, Union:
		y.d.errorf(y.pos(n), "%s: a decimal or union field takes no default but null (when null is a branch)", what)
		return nil, false
	}
	return y.defaultPrimitive(n, t.Prim, what)
}

func (y *yamlDoc) defaultPrimitive(n ast.Node, prim string, what string) (any, bool) {
	switch prim {
	case "boolean":
		return y.boolean(n, what)
	case "int", "date", "time-millis":
		return y.defaultInt(n, what, math.MinInt32, math.MaxInt32)
	case "long", "time-micros", "timestamp-millis", "timestamp-micros":
		return y.defaultInt(n, what, math.MinInt64, math.MaxInt64)
	case "float", "double":
		return y.defaultFloat(n, what)
	}
	return y.str(n, what)
}

func (y *yamlDoc) defaultInt(n ast.Node, what string, lo, hi int64) (any, bool) {
	v, ok := unwrap(n).(*ast.IntegerNode)
	if !ok {
		y.wrongType(n, what, "an integer")
		return nil, false
	}
	i, ok := intValue(v)
	if !ok || i < lo || i > hi {
		y.d.errorf(y.pos(n), "%s is out of range", what)
		return nil, false
	}
	return i, true
}

func (y *yamlDoc) defaultFloat(n ast.Node, what string) (any, bool) {
	switch v := unwrap(n).(type) {
	case *ast.FloatNode:
		return v.Value, true
	case *ast.IntegerNode:
		if i, ok := intValue(v); ok {
			return float64(i), true
		}
	}
	y.wrongType(n, what, "a number")
	return nil, false
}

func (y *yamlDoc) defaultArray(n ast.Node, elem *Type, what string) (any, bool) {
	items, ok := y.list(n, what)
	out := []any{}
	for _, it := range items {
		v, good := y.defaultValue(it, elem, what+" entries")
		out, ok = append(out, v), ok && good
	}
	return out, ok
}

func (y *yamlDoc) defaultMap(n ast.Node, elem *Type, what string) (any, bool) {
	if _, isMap := unwrap(n).(*ast.MappingNode); !isMap {
		y.wrongType(n, what, "a mapping")
		return nil, false
	}
	out, ok := map[string]any{}, true
	for _, e := range y.pairs(n, what) {
		v, good := y.defaultValue(e.val, elem, what+" value "+e.key)
		out[e.key], ok = v, ok && good
	}
	return out, ok
}

func (y *yamlDoc) defaultNamed(n ast.Node, rec *Record, what string) (any, bool) {
	switch rec.Shape {
	case EnumShape:
		v, ok := y.str(n, what)
		if ok && !slices.Contains(rec.Symbols, v) {
			y.d.errorf(y.pos(n), "%s: %q is not a symbol of %s", what, v, rec.Name)
			return nil, false
		}
		return v, ok
	case FixedShape:
		y.d.errorf(y.pos(n), "%s: a fixed field takes no default", what)
		return nil, false
	}
	return y.defaultRecord(n, rec, what)
}

func (y *yamlDoc) defaultRecord(n ast.Node, rec *Record, what string) (any, bool) {
	if _, isMap := unwrap(n).(*ast.MappingNode); !isMap {
		y.wrongType(n, what, "a mapping of the fields of "+rec.Name)
		return nil, false
	}
	given := map[string]entry{}
	for _, e := range y.pairs(n, what) {
		given[e.key] = e
	}
	out, ok := map[string]any{}, true
	for _, f := range rec.Fields {
		v, good := y.defaultField(n, given, f, what)
		out[f.Name], ok = v, ok && good
		delete(given, f.Name)
	}
	for _, e := range given {
		y.d.errorf(e.pos, "%s: %s has no field %q", what, rec.Name, e.key)
		ok = false
	}
	return out, ok
}

func (y *yamlDoc) defaultField(n ast.Node, given map[string]entry, f *Field, what string) (any, bool) {
	if e, has := given[f.Name]; has && f.Type != nil {
		return y.defaultValue(e.val, f.Type, what+" field "+f.Name)
	}
	if f.HasDefault {
		return f.Default, true
	}
	y.d.errorf(y.pos(n), "%s: field %s has no default and must be given", what, f.Name)
	return nil, false
}
