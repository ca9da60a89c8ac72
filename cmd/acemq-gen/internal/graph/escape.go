package graph

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// escapes finds where a value holding what holds accepts leaves the
// analysis's sight: into an interface, through a conversion, compared
// whole, or passed to a function outside the loaded packages (or to a
// loaded generic function that lets it escape). It calls escape for each.
type escapes struct {
	info   *types.Info
	holds  func(types.Type) bool
	loaded func(*types.Package) bool
	leaky  func(*types.Func) string // why a generic function lets its type parameters' values escape, or ""
	escape func(ast.Expr, string)
}

// node checks n; stack holds its enclosing nodes, innermost last.
func (e *escapes) node(n ast.Node, stack []ast.Node) {
	switch x := n.(type) {
	case *ast.CallExpr:
		e.call(x)
	case *ast.AssignStmt:
		e.assign(x)
	case *ast.ValueSpec:
		e.valueSpec(x)
	case *ast.ReturnStmt:
		e.ret(x, stack)
	case *ast.CompositeLit:
		e.composite(x)
	case *ast.SendStmt:
		e.to(x.Value, e.elemOf(e.typeOf(x.Chan)), "sent on a channel of interfaces")
	case *ast.BinaryExpr:
		if x.Op == token.EQL || x.Op == token.NEQ {
			e.compared(x.X)
			e.compared(x.Y)
		}
	case *ast.SwitchStmt:
		if x.Tag != nil {
			e.compared(x.Tag)
		}
	case *ast.IndexExpr:
		if _, ok := under(e.typeOf(x.X)).(*types.Map); ok {
			e.compared(x.Index) // a map key is hashed and compared whole
		}
	}
}

// under is t's underlying type, or nil.
func under(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

func (e *escapes) typeOf(x ast.Expr) types.Type {
	if tv, ok := e.info.Types[x]; ok {
		return tv.Type
	}
	return nil
}

// held reports whether x's value holds what the analysis follows.
func (e *escapes) held(x ast.Expr) bool {
	t := e.typeOf(x)
	return t != nil && e.holds(t)
}

// isInterface reports whether t is an interface type (not a type
// parameter: a value passed as one keeps its type).
func isInterface(t types.Type) bool {
	if t == nil {
		return false
	}
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return false
	}
	return types.IsInterface(t)
}

// to checks x's value going where a value of type to is expected.
func (e *escapes) to(x ast.Expr, to types.Type, why string) {
	if isInterface(to) && e.held(x) {
		e.escape(x, why)
	}
}

// compared checks x compared whole: every field of a struct value is read.
func (e *escapes) compared(x ast.Expr) {
	t := e.typeOf(x)
	if t == nil || !e.holds(t) {
		return
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Chan, *types.Interface, *types.Map, *types.Slice, *types.Signature:
		return
	}
	e.escape(x, "compared whole")
}

func (e *escapes) elemOf(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	switch u := t.Underlying().(type) {
	case *types.Chan:
		return u.Elem()
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Map:
		return u.Elem()
	case *types.Pointer:
		return e.elemOf(u.Elem())
	}
	return nil
}

// call checks a conversion, or each argument of a call.
func (e *escapes) call(c *ast.CallExpr) {
	tv, ok := e.info.Types[c.Fun]
	if !ok {
		return
	}
	if tv.IsType() {
		e.conversion(c, tv.Type)
		return
	}
	sig, ok := tv.Type.Underlying().(*types.Signature)
	if !ok {
		return
	}
	callee := typeutil.StaticCallee(e.info, c)
	for i, arg := range c.Args {
		if e.held(arg) {
			e.arg(arg, paramType(sig, i, c.Ellipsis.IsValid()), callee, i, c)
		}
	}
	e.receiver(c, callee)
}

// receiver checks the value a method is called on: a method outside the
// loaded packages, or one of a loaded generic type that lets its type
// parameters' values escape.
func (e *escapes) receiver(c *ast.CallExpr, callee *types.Func) {
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || callee == nil || callee.Signature().Recv() == nil || !e.held(sel.X) {
		return
	}
	if !e.loaded(callee.Pkg()) {
		e.escape(sel.X, "method "+callee.FullName()+" called on it, outside the loaded packages")
	} else if why := e.leaky(callee.Origin()); why != "" {
		e.escape(sel.X, "method "+callee.FullName()+" called on it, which "+why)
	}
}

// conversion checks T(x): into an interface or any other type, the value
// leaves the types the analysis follows.
func (e *escapes) conversion(c *ast.CallExpr, to types.Type) {
	if len(c.Args) != 1 || !e.held(c.Args[0]) {
		return
	}
	if from := e.typeOf(c.Args[0]); !types.Identical(types.Unalias(from), types.Unalias(to)) {
		e.escape(c.Args[0], "converted to "+types.TypeString(to, nil))
	}
}

// paramType is the type argument i of a call to sig is passed as.
func paramType(sig *types.Signature, i int, ellipsis bool) types.Type {
	n := sig.Params().Len()
	if n == 0 {
		return nil
	}
	if !sig.Variadic() || i < n-1 {
		if i >= n {
			return nil
		}
		return sig.Params().At(i).Type()
	}
	last := sig.Params().At(n - 1).Type()
	if ellipsis {
		return last
	}
	if s, ok := last.Underlying().(*types.Slice); ok {
		return s.Elem()
	}
	return last
}

// arg checks argument i of a call to callee (nil when dynamic or builtin).
func (e *escapes) arg(arg ast.Expr, pt types.Type, callee *types.Func, i int, c *ast.CallExpr) {
	if callee == nil {
		e.to(arg, pt, "passed to "+types.ExprString(c.Fun)+" as an interface")
		return
	}
	name := callee.FullName()
	switch {
	case callee.Pkg() == nil:
		e.to(arg, pt, "passed to "+name+" as an interface")
	case !e.loaded(callee.Pkg()):
		e.escape(arg, "passed to "+name+", outside the loaded packages")
	case mentionsTypeParam(paramType(callee.Origin().Signature(), i, c.Ellipsis.IsValid())):
		if why := e.leaky(callee.Origin()); why != "" {
			e.escape(arg, "passed to "+name+", which "+why)
		}
	default:
		e.to(arg, pt, "passed to "+name+" as an interface")
	}
}
