package generator

import (
	"math"
	"slices"
)

// defaults checks field defaults, as parse decoded them, against the
// fields' types.
type defaults struct{ d *diags }

// wrongType reports a value of another kind than want.
func (c defaults) wrongType(v *sValue, what, want string) {
	c.d.errorf(v.P, "%s must be %s, not %s", what, want, v.What)
}

// value checks a field default against its type and returns it as the
// JSON value Avro expects.
func (c defaults) value(v *sValue, t *Type, what string) (any, bool) {
	switch t.Kind {
	case Optional:
		if v.Kind != valueNull {
			c.wrongType(v, what, "null")
			return nil, false
		}
		return nil, true
	case Array:
		return c.array(v, t.Elem, what)
	case Map:
		return c.mapping(v, t.Elem, what)
	case Named:
		return c.named(v, t.Record, what)
	case Decimal, Union:
		c.d.errorf(v.P, "%s: a decimal or union field takes no default but null (when null is a branch)", what)
		return nil, false
	}
	return c.primitive(v, t.Prim, what)
}

func (c defaults) primitive(v *sValue, prim string, what string) (any, bool) {
	switch prim {
	case "boolean":
		if v.Kind != valueBool {
			c.wrongType(v, what, "true or false")
			return false, false
		}
		return v.Bool, true
	case "int", "date", "time-millis":
		return c.integer(v, what, math.MinInt32, math.MaxInt32)
	case "long", "time-micros", "timestamp-millis", "timestamp-micros":
		return c.integer(v, what, math.MinInt64, math.MaxInt64)
	case "float", "double":
		return c.float(v, what)
	}
	return c.str(v, what)
}

func (c defaults) str(v *sValue, what string) (string, bool) {
	if v.Kind != valueString {
		c.wrongType(v, what, "a string")
		return "", false
	}
	return v.Str, true
}

func (c defaults) integer(v *sValue, what string, lo, hi int64) (any, bool) {
	if v.Kind != valueInt {
		c.wrongType(v, what, "an integer")
		return nil, false
	}
	if !v.IntOK || v.Int < lo || v.Int > hi {
		c.d.errorf(v.P, "%s is out of range", what)
		return nil, false
	}
	return v.Int, true
}

func (c defaults) float(v *sValue, what string) (any, bool) {
	switch {
	case v.Kind == valueFloat:
		return v.Float, true
	case v.Kind == valueInt && v.IntOK:
		return float64(v.Int), true
	}
	c.wrongType(v, what, "a number")
	return nil, false
}

func (c defaults) array(v *sValue, elem *Type, what string) (any, bool) {
	ok := v.Kind == valueList
	if !ok {
		c.wrongType(v, what, "a list")
	}
	out := []any{}
	for _, it := range v.List {
		x, good := c.value(it, elem, what+" entries")
		out, ok = append(out, x), ok && good
	}
	return out, ok
}

func (c defaults) mapping(v *sValue, elem *Type, what string) (any, bool) {
	if v.Kind != valueMap {
		c.wrongType(v, what, "a mapping")
		return nil, false
	}
	out, ok := map[string]any{}, true
	for _, e := range v.Map {
		x, good := c.value(e.Val, elem, what+" value "+e.Key)
		out[e.Key], ok = x, ok && good
	}
	return out, ok
}

func (c defaults) named(v *sValue, rec *Record, what string) (any, bool) {
	switch rec.Shape {
	case EnumShape:
		s, ok := c.str(v, what)
		if ok && !slices.Contains(rec.Symbols, s) {
			c.d.errorf(v.P, "%s: %q is not a symbol of %s", what, s, rec.Name)
			return nil, false
		}
		return s, ok
	case FixedShape:
		c.d.errorf(v.P, "%s: a fixed field takes no default", what)
		return nil, false
	}
	return c.record(v, rec, what)
}

func (c defaults) record(v *sValue, rec *Record, what string) (any, bool) {
	if v.Kind != valueMap {
		c.wrongType(v, what, "a mapping of the fields of "+rec.Name)
		return nil, false
	}
	given := map[string]sEntry{}
	for _, e := range v.Map {
		given[e.Key] = e
	}
	out, ok := map[string]any{}, true
	for _, f := range rec.Fields {
		x, good := c.field(v, given, f, what)
		out[f.Name], ok = x, ok && good
		delete(given, f.Name)
	}
	for _, e := range given {
		c.d.errorf(e.P, "%s: %s has no field %q", what, rec.Name, e.Key)
		ok = false
	}
	return out, ok
}

func (c defaults) field(v *sValue, given map[string]sEntry, f *Field, what string) (any, bool) {
	if e, has := given[f.Name]; has && f.Type != nil {
		return c.value(e.Val, f.Type, what+" field "+f.Name)
	}
	if f.HasDefault {
		return f.Default, true
	}
	c.d.errorf(v.P, "%s: field %s has no default and must be given", what, f.Name)
	return nil, false
}
