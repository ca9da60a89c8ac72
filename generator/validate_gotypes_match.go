package generator

import (
	"go/types"
	"strings"
)

// The Go type of each contract type, as emission writes it (emit_types.go's
// goType): an optional T is *T, except an optional array or map, which is
// the nil-able slice or map itself; a named type is the generated one, in
// the package of its domain under the output's import path, or the one it
// is bound to.

// primitiveGo is the Go type of each primitive and logical type.
var primitiveGo = map[string]string{"boolean": "bool", "int": "int32", "long": "int64", "float": "float32",
	"double": "float64", "string": "string", "uuid": "string", "bytes": "[]byte",
	"date": "time.Time", "timestamp-millis": "time.Time", "timestamp-micros": "time.Time",
	"time-millis": "time.Duration", "time-micros": "time.Duration"}

// namedGo is the package path and name of the Go type of a named type.
func namedGo(rec *recordModel, importPath string) (string, string) {
	if isBound(rec) {
		return rec.Go.Path, rec.Go.Name
	}
	return strings.TrimSuffix(importPath, "/") + "/" + rec.Owner.Package, rec.Name
}

// goTypeText spells the Go type of t with full import paths, as
// types.TypeString does.
func goTypeText(t *typ, importPath string) string {
	switch t.Kind {
	case optionalKind:
		if t.Elem.Kind == arrayKind || t.Elem.Kind == mapKind {
			return goTypeText(t.Elem, importPath)
		}
		return "*" + goTypeText(t.Elem, importPath)
	case arrayKind:
		return "[]" + goTypeText(t.Elem, importPath)
	case mapKind:
		return "map[string]" + goTypeText(t.Elem, importPath)
	case namedKind:
		p, n := namedGo(t.Record, importPath)
		return p + "." + n
	case decimalKind:
		return "*math/big.Rat"
	case unionKind:
		return strings.TrimSuffix(importPath, "/") + "/" + t.Iface
	}
	return primitiveGo[t.Prim]
}

// matchesGo reports whether gt is the Go type of t.
func matchesGo(t *typ, gt types.Type, importPath string) bool {
	gt = types.Unalias(gt)
	switch t.Kind {
	case optionalKind:
		if t.Elem.Kind == arrayKind || t.Elem.Kind == mapKind {
			return matchesGo(t.Elem, gt, importPath)
		}
		p, ok := gt.(*types.Pointer)
		return ok && matchesGo(t.Elem, p.Elem(), importPath)
	case arrayKind:
		s, ok := gt.(*types.Slice)
		return ok && matchesGo(t.Elem, s.Elem(), importPath)
	case mapKind:
		m, ok := gt.(*types.Map)
		return ok && isBasic(m.Key(), types.String) && matchesGo(t.Elem, m.Elem(), importPath)
	case namedKind:
		path, name := namedGo(t.Record, importPath)
		return isNamed(gt, path, name)
	case decimalKind:
		p, ok := gt.(*types.Pointer)
		return ok && isNamed(p.Elem(), "math/big", "Rat")
	case unionKind:
		return false // a bound record holds no union (validate_bound.go)
	}
	return matchesPrimitive(t.Prim, gt)
}

// basicKinds are the Go kinds of the primitives that are basic types.
var basicKinds = map[string]types.BasicKind{"boolean": types.Bool, "int": types.Int32, "long": types.Int64,
	"float": types.Float32, "double": types.Float64, "string": types.String, "uuid": types.String}

func matchesPrimitive(prim string, gt types.Type) bool {
	switch want := primitiveGo[prim]; want {
	case "[]byte":
		s, ok := gt.(*types.Slice)
		return ok && isBasic(s.Elem(), types.Uint8)
	case "time.Time", "time.Duration":
		return isNamed(gt, "time", strings.TrimPrefix(want, "time."))
	}
	return isBasic(gt, basicKinds[prim])
}

func isBasic(t types.Type, kind types.BasicKind) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && b.Kind() == kind
}

// isNamed reports whether t is the named type path.name.
func isNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}
