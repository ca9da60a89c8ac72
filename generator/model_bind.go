package generator

import (
	"fmt"
	"go/token"
	"regexp"
	"strings"
)

// Bound types: a record, enum or fixed type of types: that says
// go: example.com/shared/money.Amount is the existing Go type it names. The
// contract still declares its fields, symbols or size, which give its Avro
// schema and its wire names; validation checks the Go type against them
// (validate_bound.go, validate_gotypes.go) and emission writes the named
// type wherever the contract uses the type, and declares nothing for it.

// importPathRE is what a Go import path may hold, loosely: the go command
// has the last word when the package is loaded.
var importPathRE = regexp.MustCompile(`^[A-Za-z0-9_.~+-]+(/[A-Za-z0-9_.~+-]+)*$`)

// binding reads the go: key of t; nil when there is none or it is malformed.
func (r *resolver) binding(t *syntaxType) *goBinding {
	if !t.Go.Set {
		return nil
	}
	i := strings.LastIndex(t.Go.V, ".")
	if i <= 0 || strings.LastIndex(t.Go.V, "/") > i || !importPathRE.MatchString(t.Go.V[:i]) ||
		!token.IsIdentifier(t.Go.V[i+1:]) || !token.IsExported(t.Go.V[i+1:]) {
		r.d.errorf(t.Go.P, "type %s: go: names a Go type as import/path.Type, such as example.com/shared/money.Amount; %q is not one", t.Name.V, t.Go.V)
		return nil
	}
	return &goBinding{Pos: t.Go.P, Path: t.Go.V[:i], Name: t.Go.V[i+1:]}
}

// isBound reports whether rec is bound to an existing Go type.
func isBound(rec *recordModel) bool { return rec != nil && rec.Go != nil }

// boundTypes is every bound type of the model, in domain and file order.
func boundTypes(m *model) []*recordModel {
	var out []*recordModel
	for _, dom := range m.Domains {
		for _, rec := range dom.Records {
			if isBound(rec) {
				out = append(out, rec)
			}
		}
	}
	return out
}

// contractType spells t as a contract writes it: long, string?, [Money],
// {map: long}, decimal(10,2), {union: [long, string]}.
func contractType(t *typ) string {
	switch t.Kind {
	case optionalKind:
		return contractType(t.Elem) + "?"
	case arrayKind:
		return "[" + contractType(t.Elem) + "]"
	case mapKind:
		return "{map: " + contractType(t.Elem) + "}"
	case namedKind:
		return t.Record.Name
	case decimalKind:
		return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale)
	case unionKind:
		var bs []string
		for _, b := range t.Branches {
			bs = append(bs, contractType(b))
		}
		return "{union: [" + strings.Join(bs, ", ") + "]}"
	}
	return t.Prim
}
