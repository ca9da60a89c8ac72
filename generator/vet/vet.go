package vet

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// The import paths the analyzers match declarations against.
const (
	acemqPath    = "github.com/acemq/acemq-gen/runtime/acemq"
	implPath     = "github.com/acemq/acemq-gen/runtime/acemqimpl"
	patternsPath = "github.com/acemq/acemq-gen/runtime/patterns"
)

// Analyzers returns every acemq-vet analyzer, in name order. The slice is new
// on every call; the analyzers it holds are shared.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{InterceptorPanic, PayloadType, ReservedHeader, Unsettled, WireTags}
}

// skipGenerated is false only in this package's tests, which prove that
// acemq-gen's output is clean without the skip.
var skipGenerated = true

// handwritten returns the files of the pass a person wrote: those without
// the "Code generated ... DO NOT EDIT." header.
func handwritten(pass *analysis.Pass) []*ast.File {
	var out []*ast.File
	for _, f := range pass.Files {
		if !skipGenerated || !ast.IsGenerated(f) {
			out = append(out, f)
		}
	}
	return out
}

// isNamed reports whether t (aliases resolved) is the named type path.name.
func isNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Name() == name && obj.Pkg() != nil && obj.Pkg().Path() == path
}

// isPointerTo reports whether t is *path.name.
func isPointerTo(t types.Type, path, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && isNamed(p.Elem(), path, name)
}

// isFunc reports whether obj is the package-level function path.name.
func isFunc(obj types.Object, path, name string) bool {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != path || fn.Name() != name {
		return false
	}
	return fn.Type().(*types.Signature).Recv() == nil
}

// isMethod reports whether obj is the method name of path.recv (value or
// pointer receiver).
func isMethod(obj types.Object, path, recv, name string) bool {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Name() != name {
		return false
	}
	r := fn.Type().(*types.Signature).Recv()
	if r == nil {
		return false
	}
	t := r.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return isNamed(t, path, recv)
}

// fieldOf reports whether sel selects the field name of the struct path.typ
// (through a pointer or not).
func fieldOf(info *types.Info, sel *ast.SelectorExpr, path, typ, name string) bool {
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal || s.Obj().Name() != name {
		return false
	}
	t := s.Recv()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return isNamed(t, path, typ)
}

// calleeOf returns the object a call calls: a function, a method or an
// instantiated generic function (its generic origin), or nil.
func calleeOf(info *types.Info, call *ast.CallExpr) types.Object {
	if id := funIdent(call); id != nil {
		return info.Uses[id]
	}
	return nil
}

// funIdent is the identifier naming the called function, or nil.
func funIdent(call *ast.CallExpr) *ast.Ident {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// funcBody is one function of a file: a declaration or a literal, with its
// signature.
type funcBody struct {
	node ast.Node // *ast.FuncDecl or *ast.FuncLit
	sig  *types.Signature
	body *ast.BlockStmt
}

// eachFunc calls fn for every function with a body in the pass's
// handwritten files, nested literals included.
func eachFunc(pass *analysis.Pass, fn func(funcBody)) {
	for _, f := range handwritten(pass) {
		ast.Inspect(f, func(n ast.Node) bool {
			if b, ok := asFunc(pass.TypesInfo, n); ok {
				fn(b)
			}
			return true
		})
	}
}

// asFunc returns n as a function with a body and a known signature.
func asFunc(info *types.Info, n ast.Node) (funcBody, bool) {
	var b funcBody
	switch d := n.(type) {
	case *ast.FuncDecl:
		if obj, ok := info.Defs[d.Name].(*types.Func); ok && d.Body != nil {
			b = funcBody{node: d, sig: obj.Type().(*types.Signature), body: d.Body}
		}
	case *ast.FuncLit:
		if sig, ok := info.TypeOf(d).(*types.Signature); ok {
			b = funcBody{node: d, sig: sig, body: d.Body}
		}
	}
	return b, b.body != nil
}

// inspectOwn walks body like ast.Inspect but does not enter nested function
// literals: what it sees is what this function itself does.
func inspectOwn(body *ast.BlockStmt, fn func(ast.Node) bool) {
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		return fn(n)
	})
}

// typeString spells t as the pass's source would: its own types bare, other
// packages' by package name.
func typeString(pass *analysis.Pass, t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == pass.Pkg {
			return ""
		}
		return p.Name()
	})
}
