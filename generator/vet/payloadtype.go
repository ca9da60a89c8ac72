package vet

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// PayloadType reports two ways of losing a published payload (seed 000):
//
//   - a function that asserts c.Payload (of an acemq.PublishContext) to one
//     type and assigns it a value of another: the publish fails naming both
//     types (the seed dropped the replacement silently);
//   - the function given to acemqimpl.InterceptPublish or a generated
//     Intercept<Message> that replaces *m wholesale with a zero value, so
//     an empty message is published.
var PayloadType = &analysis.Analyzer{
	Name: "payloadtype",
	Doc: "report publish interceptors that replace the payload with another type or a zero value\n\n" +
		"A publish interceptor that asserted c.Payload to T must assign it a T; a typed\n" +
		"Intercept<Message> function that sets *m to the zero value publishes an empty message.",
	Run: honouringIgnores(runPayloadType),
}

func runPayloadType(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(fb funcBody) { payloadAssignments(pass, fb.body) })
	for _, f := range handwritten(pass) {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				zeroedMessage(pass, call)
			}
			return true
		})
	}
	return nil, nil
}

// payloadAssignments checks each c.Payload = v in body against the types
// body asserted c.Payload to: in a type switch case, that case's type;
// elsewhere, any type asserted in the function.
func payloadAssignments(pass *analysis.Pass, body *ast.BlockStmt) {
	asserted := assertedPayloadTypes(pass, body)
	var walk func(n ast.Node, want []types.Type)
	walk = func(n ast.Node, want []types.Type) {
		inspectOwn(&ast.BlockStmt{List: []ast.Stmt{n.(ast.Stmt)}}, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeSwitchStmt:
				if payloadSwitch(pass, n) {
					for _, cc := range n.Body.List {
						walkCase(pass, cc.(*ast.CaseClause), want, walk)
					}
					return false
				}
			case *ast.AssignStmt:
				checkPayloadAssign(pass, n, want)
			}
			return true
		})
	}
	for _, st := range body.List {
		walk(st, asserted)
	}
}

// walkCase walks a type switch case with its single type as the one wanted
// (a case of several types, or default, keeps the function's).
func walkCase(pass *analysis.Pass, cc *ast.CaseClause, want []types.Type, walk func(ast.Node, []types.Type)) {
	if len(cc.List) == 1 {
		if t := pass.TypesInfo.TypeOf(cc.List[0]); t != nil && !types.IsInterface(t) {
			want = []types.Type{t}
		}
	}
	for _, st := range cc.Body {
		walk(st, want)
	}
}

// assertedPayloadTypes are the concrete types body asserts c.Payload to
// with x.(T) or in a type switch.
func assertedPayloadTypes(pass *analysis.Pass, body *ast.BlockStmt) []types.Type {
	var out []types.Type
	inspectOwn(body, func(n ast.Node) bool {
		ta, ok := n.(*ast.TypeAssertExpr)
		if !ok || !isPayload(pass, ta.X) {
			return true
		}
		if ta.Type != nil {
			out = appendConcrete(out, pass.TypesInfo.TypeOf(ta.Type))
		}
		return true
	})
	return out
}

func appendConcrete(ts []types.Type, t types.Type) []types.Type {
	if t == nil || types.IsInterface(t) {
		return ts
	}
	return append(ts, t)
}

// payloadSwitch reports whether sw switches on the type of c.Payload.
func payloadSwitch(pass *analysis.Pass, sw *ast.TypeSwitchStmt) bool {
	var x ast.Expr
	switch a := sw.Assign.(type) {
	case *ast.AssignStmt:
		x = a.Rhs[0]
	case *ast.ExprStmt:
		x = a.X
	}
	ta, ok := ast.Unparen(x).(*ast.TypeAssertExpr)
	return ok && isPayload(pass, ta.X)
}

// checkPayloadAssign reports c.Payload = v when v's type is none of want.
func checkPayloadAssign(pass *analysis.Pass, as *ast.AssignStmt, want []types.Type) {
	if len(want) == 0 || len(as.Lhs) != len(as.Rhs) {
		return
	}
	for i, lhs := range as.Lhs {
		if !isPayload(pass, lhs) {
			continue
		}
		got := pass.TypesInfo.TypeOf(as.Rhs[i])
		if got == nil || types.IsInterface(got) || containsType(want, got) {
			continue
		}
		pass.Reportf(as.Rhs[i].Pos(), "c.Payload is asserted to %s but assigned a %s: the publish fails naming both types; assign a %s",
			typeNames(pass, want), typeString(pass, got), typeNames(pass, want))
	}
}

func containsType(ts []types.Type, t types.Type) bool {
	for _, w := range ts {
		if types.Identical(w, t) {
			return true
		}
	}
	return false
}

func typeNames(pass *analysis.Pass, ts []types.Type) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = typeString(pass, t)
	}
	return strings.Join(names, " or ")
}

// isPayload reports whether e is x.Payload for an acemq.PublishContext x.
func isPayload(pass *analysis.Pass, e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	return ok && fieldOf(pass.TypesInfo, sel, acemqPath, "PublishContext", "Payload")
}
