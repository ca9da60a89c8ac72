package graph

import (
	"go/ast"
	"go/types"
)

// findLeaky finds the loaded generic functions that let a value of their
// type parameters escape (into an interface, a conversion, a comparison, a
// method call, an unknown function), to a fixed point: one that passes such
// a value to a leaky one is leaky too.
func (a *analysis) findLeaky(files []srcFile) {
	for changed := true; changed; {
		changed = false
		for _, sf := range files {
			for _, d := range sf.file.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || !isGeneric(fd) {
					continue
				}
				fn, _ := sf.info.Defs[fd.Name].(*types.Func)
				if fn != nil && a.leaky[fn.FullName()] == "" && a.leakyBody(sf, fd, fn) {
					changed = true
				}
			}
		}
	}
}

// leakyBody scans fd's body and reports whether it found fn leaky.
func (a *analysis) leakyBody(sf srcFile, fd *ast.FuncDecl, fn *types.Func) bool {
	e := &escapes{info: sf.info, holds: mentionsTypeParam, loaded: a.isLoaded, leaky: a.leakyWhy,
		escape: func(x ast.Expr, why string) {
			if a.leaky[fn.FullName()] == "" {
				a.leaky[fn.FullName()] = "lets it escape: " + why + " at " + sf.mod.pos(a.fset, x.Pos())
			}
		}}
	var stack []ast.Node
	ast.Inspect(fd, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if sel, ok := n.(*ast.SelectorExpr); ok {
			a.typeParamMethod(sf, fn, sel)
		}
		e.node(n, stack)
		stack = append(stack, n)
		return true
	})
	return a.leaky[fn.FullName()] != ""
}

// typeParamMethod marks fn leaky when it calls a method on a value of a
// type parameter (a generated record's method reads every field).
func (a *analysis) typeParamMethod(sf srcFile, fn *types.Func, sel *ast.SelectorExpr) {
	v, ok := sf.info.Selections[sel]
	if !ok || v.Kind() == types.FieldVal || !mentionsTypeParam(v.Recv()) || a.leaky[fn.FullName()] != "" {
		return
	}
	a.leaky[fn.FullName()] = "calls its method " + sel.Sel.Name + " at " + sf.mod.pos(a.fset, sel.Pos())
}

// leakyWhy says how a generic function lets its values escape, or "".
func (a *analysis) leakyWhy(fn *types.Func) string { return a.leaky[fn.FullName()] }

// isGeneric reports whether fd has type parameters, or is a method of a
// generic type.
func isGeneric(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams != nil {
		return true
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	t := fd.Recv.List[0].Type
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	switch t.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}
