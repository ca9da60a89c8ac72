package generator

import (
	"strings"

	"github.com/goccy/go-yaml/ast"
)

var typeExprKeys = newKeySet([]string{"array", "map"}, "union", "fixed")

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
	y.wrongType(n, what, "a type (a name, T?, [T], {array: T} or {map: T})")
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
		y.d.errorf(y.pos(m), "%s: a type mapping has exactly one key, array or map", what)
		return nil
	}
	es := y.entries(m, what, typeExprKeys)
	if len(es) != 1 {
		return nil
	}
	op := map[string]exprOp{"array": exprArray, "map": exprMap}[es[0].key]
	return wrapExpr(y.pos(m), op, y.typeExpr(es[0].val, what))
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
	for x := e; x != nil; x = x.Elem {
		x.P = p
	}
	return e
}
