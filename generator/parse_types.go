package generator

import (
	"strings"

	"github.com/goccy/go-yaml/ast"
)

var typeExprKeys = newKeySet([]string{"array", "map", "union", "fixed"})

// typeExpr reads a type expression: a name, "T?", "[T]", a one-element list,
// {array: T} or {map: T}.
func (y *yamlDoc) typeExpr(n ast.Node, what string) *typeExpr {
	switch v := unwrap(n).(type) {
	case *ast.StringNode:
		return y.typeString(strings.TrimSpace(v.Value), y.pos(n), what)
	case *ast.SequenceNode:
		return y.typeList(v, what)
	case *ast.MappingNode:
		return y.typeMapping(v, what)
	}
	y.wrongType(n, what, "a type (a name, T?, [T], {array: T}, {map: T}, {union: [A, B]} or {fixed: N})")
	return nil
}

func (y *yamlDoc) typeString(s string, p Pos, what string) *typeExpr {
	switch {
	case s == "":
		y.d.errorf(p, "%s must name a type", what)
		return nil
	case strings.HasSuffix(s, "?"):
		return wrapExpr(p, exprOptional, y.typeString(strings.TrimSuffix(s, "?"), p, what))
	case strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]"):
		return wrapExpr(p, exprArray, y.typeString(s[1:len(s)-1], p, what))
	case strings.HasPrefix(s, "{"):
		return y.typeFlow(s, p, what)
	}
	return &typeExpr{P: p, Op: exprName, Name: s}
}

func wrapExpr(p Pos, op exprOp, elem *typeExpr) *typeExpr {
	if elem == nil {
		return nil
	}
	return &typeExpr{P: p, Op: op, Elem: elem}
}

func (y *yamlDoc) typeList(s *ast.SequenceNode, what string) *typeExpr {
	if len(s.Values) != 1 {
		y.d.errorf(y.pos(s), "%s: an array type is [T], with exactly one element type", what)
		return nil
	}
	return wrapExpr(y.pos(s), exprArray, y.typeExpr(s.Values[0], what))
}

func (y *yamlDoc) typeMapping(m *ast.MappingNode, what string) *typeExpr {
	if len(m.Values) != 1 {
		y.d.errorf(y.pos(m), "%s: a type mapping has exactly one key: array, map, union or fixed", what)
		return nil
	}
	es := y.entries(m, what, typeExprKeys)
	if len(es) != 1 {
		return nil
	}
	switch es[0].key {
	case "union":
		return y.typeUnion(y.pos(m), es[0].val, what)
	case "fixed":
		size, ok := y.integer(es[0].val, what+": fixed")
		if !ok || size < 1 {
			y.d.errorf(y.pos(es[0].val), "%s: a fixed size is a positive number of bytes", what)
			return nil
		}
		return &typeExpr{P: y.pos(m), Op: exprFixed, Size: size}
	}
	op := map[string]exprOp{"array": exprArray, "map": exprMap}[es[0].key]
	return wrapExpr(y.pos(m), op, y.typeExpr(es[0].val, what))
}

// typeUnion reads the branches of {union: [A, B, ...]}.
func (y *yamlDoc) typeUnion(p Pos, n ast.Node, what string) *typeExpr {
	items, ok := y.list(n, what+": union")
	if !ok {
		return nil
	}
	u := &typeExpr{P: p, Op: exprUnion}
	for _, it := range items {
		if isNull(it) {
			u.Elems = append(u.Elems, &typeExpr{P: y.pos(it), Op: exprName, Name: "null"})
			continue
		}
		b := y.typeExpr(it, what)
		if b == nil {
			return nil
		}
		u.Elems = append(u.Elems, b)
	}
	return u
}

// isLongForm reports whether a field's value is the long form {type: T, ...}.
func isLongForm(n ast.Node) bool {
	m, ok := unwrap(n).(*ast.MappingNode)
	if !ok {
		return false
	}
	for _, mv := range m.Values {
		if keyText(mv.Key) == "type" {
			return true
		}
	}
	return false
}

// typeFlow reads a type mapping written inside a string ("{map: string}?"
// parses as "{map: string}" made optional); its diagnostics point at p.
func (y *yamlDoc) typeFlow(s string, p Pos, what string) *typeExpr {
	sub := &yamlDoc{path: y.path, d: &diags{}}
	var e *typeExpr
	if root := sub.root([]byte(s)); root != nil {
		e = sub.typeExpr(root, what)
	}
	for _, d := range sub.d.list {
		y.d.errorf(p, "%s", d.Message)
	}
	setPos(e, p)
	return e
}

// setPos places e and every type inside it at p.
func setPos(e *typeExpr, p Pos) {
	if e == nil {
		return
	}
	e.P = p
	setPos(e.Elem, p)
	for _, b := range e.Elems {
		setPos(b, p)
	}
}
