package vet

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// InterceptorPanic reports a direct call of panic in a publish interceptor,
// a consume interceptor (acemq.PublishInterceptor, acemq.ConsumeInterceptor,
// or the function of acemqimpl.InterceptPublish and the generated
// Intercept<Message>) or a method of a type implementing acemq.Codec (seed
// 000: do not panic, return an error). The runtime recovers these panics,
// but a panic is a bug report, not a refusal. A function that defers a
// recover of its own is not reported, nor is a panic in a nested function
// literal (a different function).
var InterceptorPanic = &analysis.Analyzer{
	Name: "interceptorpanic",
	Doc: "report panics in interceptors and codecs\n\n" +
		"A publish or consume interceptor, or a Codec's method, that panics: return an error instead\n" +
		"(a publish refusal reaches the caller, a consume refusal dead-letters the message).",
	Run: honouringIgnores(runInterceptorPanic),
}

func runInterceptorPanic(pass *analysis.Pass) (any, error) {
	codec := codecInterface(pass.Pkg)
	eachFunc(pass, func(fb funcBody) {
		what := interceptorKind(fb.sig)
		if what == "" {
			what = codecMethod(fb, codec, pass.Pkg)
		}
		if what == "" || defersRecover(pass, fb.body) {
			return
		}
		inspectOwn(fb.body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && isBuiltin(pass, call, "panic") {
				pass.Reportf(call.Pos(), "panic in %s: return an error instead", what)
			}
			return true
		})
	})
	return nil, nil
}

// interceptorKind names what sig is the signature of, or "".
func interceptorKind(sig *types.Signature) string {
	ps := sig.Params()
	if sig.Recv() != nil || ps.Len() < 2 || sig.Results().Len() != 1 || !isError(sig.Results().At(0).Type()) ||
		!isNamed(ps.At(0).Type(), "context", "Context") {
		return ""
	}
	switch {
	case ps.Len() == 2 && isPointerTo(ps.At(1).Type(), acemqPath, "PublishContext"):
		return "a publish interceptor"
	case ps.Len() == 2 && isPointerTo(ps.At(1).Type(), acemqPath, "ConsumeContext"):
		return "a consume interceptor"
	case isTypedInterceptor(sig):
		return "a typed publish interceptor"
	}
	return ""
}

// codecInterface finds acemq.Codec among pkg and its imports, or nil when
// the package cannot see it (then it declares no codec).
func codecInterface(pkg *types.Package) *types.Interface {
	var find func(p *types.Package, seen map[*types.Package]bool) *types.Interface
	find = func(p *types.Package, seen map[*types.Package]bool) *types.Interface {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == acemqPath {
			if obj, ok := p.Scope().Lookup("Codec").(*types.TypeName); ok {
				iface, _ := obj.Type().Underlying().(*types.Interface)
				return iface
			}
		}
		for _, imp := range p.Imports() {
			if iface := find(imp, seen); iface != nil {
				return iface
			}
		}
		return nil
	}
	return find(pkg, map[*types.Package]bool{})
}

// codecMethod names fb when it is a method of acemq.Codec on a type that
// implements it, or "".
func codecMethod(fb funcBody, codec *types.Interface, pkg *types.Package) string {
	recv := fb.sig.Recv()
	decl, ok := fb.node.(*ast.FuncDecl)
	if codec == nil || recv == nil || !ok {
		return ""
	}
	name := decl.Name.Name
	if obj, _, _ := types.LookupFieldOrMethod(codec, false, nil, name); obj == nil {
		return ""
	}
	t := recv.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if !types.Implements(t, codec) && !types.Implements(types.NewPointer(t), codec) {
		return ""
	}
	return "the codec method " + types.TypeString(t, types.RelativeTo(pkg)) + "." + name
}

// defersRecover reports whether body defers a function literal that calls
// recover, so its panics never leave it.
func defersRecover(pass *analysis.Pass, body *ast.BlockStmt) bool {
	found := false
	inspectOwn(body, func(n ast.Node) bool {
		d, ok := n.(*ast.DeferStmt)
		if !ok {
			return !found
		}
		if lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit); ok {
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && isBuiltin(pass, call, "recover") {
					found = true
				}
				return !found
			})
		}
		return !found
	})
	return found
}

// isBuiltin reports whether call calls the builtin name.
func isBuiltin(pass *analysis.Pass, call *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = pass.TypesInfo.Uses[id].(*types.Builtin)
	return ok
}
