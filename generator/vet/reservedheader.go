package vet

import (
	"go/ast"
	"go/constant"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// reservedPrefix is the engine's header namespace, compared
// case-insensitively as the runtime's isReserved does.
const reservedPrefix = "x-acemq-"

// ReservedHeader reports an application header named, by a constant, in the
// engine's x-acemq- namespace: acemq.Header(name, v) and
// PublishContext.SetHeader(name, v) fail the publish at run time, and a
// write straight into Envelope.Headers is refused or dropped.
var ReservedHeader = &analysis.Analyzer{
	Name: "reservedheader",
	Doc: "report application headers named in the engine's reserved x-acemq- namespace\n\n" +
		"acemq.Header, PublishContext.SetHeader and writes to Envelope.Headers with a constant name\n" +
		"starting x-acemq- (in any case) fail or are dropped at run time: use a prefix of your own.",
	Run: honouringIgnores(runReservedHeader),
}

func runReservedHeader(pass *analysis.Pass) (any, error) {
	for _, f := range handwritten(pass) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				reservedInCall(pass, n)
			case *ast.AssignStmt:
				reservedInAssign(pass, n)
			case *ast.CompositeLit:
				reservedInEnvelopeLit(pass, n)
			}
			return true
		})
	}
	return nil, nil
}

// reservedInCall reports acemq.Header("x-acemq-…", v) and
// c.SetHeader("x-acemq-…", v).
func reservedInCall(pass *analysis.Pass, call *ast.CallExpr) {
	if len(call.Args) == 0 {
		return
	}
	obj := calleeOf(pass.TypesInfo, call)
	var what string
	switch {
	case isFunc(obj, acemqPath, "Header"):
		what = "acemq.Header"
	case isMethod(obj, acemqPath, "PublishContext", "SetHeader"):
		what = "SetHeader"
	default:
		return
	}
	if name, ok := reservedName(pass, call.Args[0]); ok {
		pass.Reportf(call.Args[0].Pos(), "%s(%q): the x-acemq- namespace belongs to the engine and the publish fails; use a prefix of your own", what, name)
	}
}

// reservedInAssign reports env.Headers["x-acemq-…"] = v and
// env.Headers = map[string]any{"x-acemq-…": v}.
func reservedInAssign(pass *analysis.Pass, as *ast.AssignStmt) {
	for i, lhs := range as.Lhs {
		switch l := ast.Unparen(lhs).(type) {
		case *ast.IndexExpr:
			if isHeadersField(pass, l.X) {
				reportHeadersKey(pass, l.Index)
			}
		case *ast.SelectorExpr:
			if len(as.Rhs) == len(as.Lhs) && isHeadersField(pass, l) {
				reservedInMapLit(pass, as.Rhs[i])
			}
		}
	}
}

// reservedInEnvelopeLit reports acemq.Envelope{Headers: map[string]any{"x-acemq-…": v}}.
func reservedInEnvelopeLit(pass *analysis.Pass, lit *ast.CompositeLit) {
	if !isNamed(pass.TypesInfo.TypeOf(lit), acemqPath, "Envelope") {
		return
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Headers" {
				reservedInMapLit(pass, kv.Value)
			}
		}
	}
}

// reservedInMapLit reports each reserved constant key of a map literal.
func reservedInMapLit(pass *analysis.Pass, e ast.Expr) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			reportHeadersKey(pass, kv.Key)
		}
	}
}

func reportHeadersKey(pass *analysis.Pass, key ast.Expr) {
	if name, ok := reservedName(pass, key); ok {
		pass.Reportf(key.Pos(), "Envelope.Headers[%q]: the x-acemq- namespace belongs to the engine and the header is refused or dropped; use a prefix of your own", name)
	}
}

// isHeadersField reports whether e is x.Headers for an acemq.Envelope x.
func isHeadersField(pass *analysis.Pass, e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	return ok && fieldOf(pass.TypesInfo, sel, acemqPath, "Envelope", "Headers")
}

// reservedName returns e's constant string value when it is in the reserved
// namespace.
func reservedName(pass *analysis.Pass, e ast.Expr) (string, bool) {
	tv, ok := pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	name := constant.StringVal(tv.Value)
	return name, isReserved(name)
}

func isReserved(name string) bool {
	return len(name) >= len(reservedPrefix) && strings.EqualFold(name[:len(reservedPrefix)], reservedPrefix)
}
