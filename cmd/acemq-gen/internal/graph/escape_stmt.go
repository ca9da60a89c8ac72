package graph

import (
	"go/ast"
	"go/token"
	"go/types"
)

// assign checks x = v into an interface (and a tuple's values).
func (e *escapes) assign(as *ast.AssignStmt) {
	if as.Tok != token.ASSIGN && as.Tok != token.DEFINE {
		return
	}
	if len(as.Lhs) == len(as.Rhs) {
		for i, l := range as.Lhs {
			e.to(as.Rhs[i], e.typeOf(l), "assigned to an interface")
		}
		return
	}
	if len(as.Rhs) == 1 {
		for _, l := range as.Lhs {
			e.to(as.Rhs[0], e.typeOf(l), "assigned to an interface")
		}
	}
}

// valueSpec checks var x T = v with T an interface.
func (e *escapes) valueSpec(vs *ast.ValueSpec) {
	if vs.Type == nil {
		return
	}
	for _, v := range vs.Values {
		e.to(v, e.typeOf(vs.Type), "assigned to an interface")
	}
}

// ret checks a return into an interface result of the enclosing function.
func (e *escapes) ret(r *ast.ReturnStmt, stack []ast.Node) {
	sig := e.enclosing(stack)
	if sig == nil {
		return
	}
	res := sig.Results()
	for i, x := range r.Results {
		if len(r.Results) == res.Len() {
			e.to(x, res.At(i).Type(), "returned as an interface")
			continue
		}
		for j := range res.Len() {
			e.to(x, res.At(j).Type(), "returned as an interface")
		}
	}
}

// enclosing is the signature of the innermost function in stack.
func (e *escapes) enclosing(stack []ast.Node) *types.Signature {
	for i := len(stack) - 1; i >= 0; i-- {
		switch f := stack[i].(type) {
		case *ast.FuncLit:
			sig, _ := e.typeOf(f).(*types.Signature)
			return sig
		case *ast.FuncDecl:
			if fn, ok := e.info.Defs[f.Name].(*types.Func); ok {
				return fn.Signature()
			}
			return nil
		}
	}
	return nil
}

// composite checks the elements of a composite literal put into interface
// fields, elements or keys.
func (e *escapes) composite(lit *ast.CompositeLit) {
	t := e.typeOf(lit)
	if t == nil {
		return
	}
	st, isStruct := t.Underlying().(*types.Struct)
	m, isMap := t.Underlying().(*types.Map)
	for i, el := range lit.Elts {
		v := el
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			v = kv.Value
			if isMap {
				e.to(kv.Key, m.Key(), "used as a map key of interface type")
				e.compared(kv.Key)
			}
		}
		switch {
		case isStruct:
			e.to(v, structField(st, el, i), "stored in a field of interface type")
		default:
			e.to(v, e.elemOf(t), "stored in an element of interface type")
		}
	}
}

// structField is the type of the struct field el (keyed, or the i-th) sets.
func structField(st *types.Struct, el ast.Expr, i int) types.Type {
	if kv, ok := el.(*ast.KeyValueExpr); ok {
		if id, ok := kv.Key.(*ast.Ident); ok {
			for j := range st.NumFields() {
				if st.Field(j).Name() == id.Name {
					return st.Field(j).Type()
				}
			}
		}
		return nil
	}
	if i < st.NumFields() {
		return st.Field(i).Type()
	}
	return nil
}

// mentionsTypeParam reports whether t holds a type parameter's value.
func mentionsTypeParam(t types.Type) bool {
	switch x := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Pointer:
		return mentionsTypeParam(x.Elem())
	case *types.Slice:
		return mentionsTypeParam(x.Elem())
	case *types.Array:
		return mentionsTypeParam(x.Elem())
	case *types.Map:
		return mentionsTypeParam(x.Key()) || mentionsTypeParam(x.Elem())
	case *types.Chan:
		return mentionsTypeParam(x.Elem())
	case *types.Struct:
		for i := range x.NumFields() {
			if mentionsTypeParam(x.Field(i).Type()) {
				return true
			}
		}
	case *types.Named:
		for i := range x.TypeArgs().Len() {
			if mentionsTypeParam(x.TypeArgs().At(i)) {
				return true
			}
		}
	}
	return false
}
