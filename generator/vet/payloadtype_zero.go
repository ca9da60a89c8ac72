package vet

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// zeroedMessage reports a typed publish interceptor given to
// acemqimpl.InterceptPublish or an Intercept<Message> function that sets *m to
// the zero value.
func zeroedMessage(pass *analysis.Pass, call *ast.CallExpr) {
	if len(call.Args) != 1 || !isTypedInterceptCall(pass, call) {
		return
	}
	lit, ok := ast.Unparen(call.Args[0]).(*ast.FuncLit)
	if !ok {
		return
	}
	sig, ok := pass.TypesInfo.TypeOf(lit).(*types.Signature)
	if !ok || sig.Params().Len() != 3 {
		return
	}
	m := sig.Params().At(2)
	inspectOwn(lit.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			reportZeroing(pass, as, m)
		}
		return true
	})
}

// isTypedInterceptCall reports whether call is acemqimpl.InterceptPublish(fn) or
// a function named Intercept<Message> returning acemq.ConnOption whose one
// parameter is func(context.Context, *acemq.PublishContext, *M) error.
func isTypedInterceptCall(pass *analysis.Pass, call *ast.CallExpr) bool {
	obj := calleeOf(pass.TypesInfo, call)
	if isFunc(obj, implPath, "InterceptPublish") {
		return true
	}
	fn, ok := obj.(*types.Func)
	if !ok || !strings.HasPrefix(fn.Name(), "Intercept") {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 1 || sig.Results().Len() != 1 || !isNamed(sig.Results().At(0).Type(), acemqPath, "ConnOption") {
		return false
	}
	p, ok := types.Unalias(sig.Params().At(0).Type()).Underlying().(*types.Signature)
	return ok && isTypedInterceptor(p)
}

// isTypedInterceptor reports whether sig is func(context.Context,
// *acemq.PublishContext, *M) error.
func isTypedInterceptor(sig *types.Signature) bool {
	ps := sig.Params()
	if ps.Len() != 3 || sig.Results().Len() != 1 || !isNamed(ps.At(0).Type(), "context", "Context") {
		return false
	}
	_, ptr := types.Unalias(ps.At(2).Type()).(*types.Pointer)
	return ptr && isPointerTo(ps.At(1).Type(), acemqPath, "PublishContext") && isError(sig.Results().At(0).Type())
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// reportZeroing reports *m = <zero value> in as.
func reportZeroing(pass *analysis.Pass, as *ast.AssignStmt, m *types.Var) {
	if len(as.Lhs) != len(as.Rhs) {
		return
	}
	for i, lhs := range as.Lhs {
		star, ok := ast.Unparen(lhs).(*ast.StarExpr)
		if !ok {
			continue
		}
		id, ok := ast.Unparen(star.X).(*ast.Ident)
		if !ok || pass.TypesInfo.Uses[id] != m || !isZeroValue(pass, as.Rhs[i]) {
			continue
		}
		pass.Reportf(as.Pos(), "*%s is replaced with the zero %s: an empty message is published; change the fields you mean to, or return an error to stop the publish",
			id.Name, typeString(pass, m.Type().(*types.Pointer).Elem()))
	}
}

// isZeroValue reports whether e is T{} or *new(T), or a constant zero.
func isZeroValue(pass *analysis.Pass, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return len(x.Elts) == 0
	case *ast.StarExpr:
		call, ok := ast.Unparen(x.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		_, builtin := pass.TypesInfo.Uses[id].(*types.Builtin)
		return ok && builtin && id.Name == "new"
	}
	tv := pass.TypesInfo.Types[e]
	if tv.Value != nil {
		return isZeroConstant(tv.Value)
	}
	return tv.IsNil()
}

func isZeroConstant(v constant.Value) bool {
	switch v.Kind() {
	case constant.String:
		return constant.StringVal(v) == ""
	case constant.Bool:
		return !constant.BoolVal(v)
	case constant.Int, constant.Float, constant.Complex:
		return constant.Sign(v) == 0
	}
	return false
}
