package graph

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
)

// staticMethods are the generated record methods that read no field.
var staticMethods = map[string]bool{"AvroSchema": true, "AvroFullSchema": true, "AvroFingerprint": true}

// fileScan is one file's walk: the module its reads go to and the nodes
// enclosing the current one.
type fileScan struct {
	a     *analysis
	m     *module
	info  *types.Info
	stack []ast.Node
}

// scanReads records every field read and every escape in f.
func (a *analysis) scanReads(m *module, info *types.Info, f *ast.File) {
	s := &fileScan{a: a, m: m, info: info}
	e := &escapes{info: info, holds: func(t types.Type) bool { return len(a.recordsIn(t)) > 0 },
		loaded: a.isLoaded, leaky: a.leakyWhy, escape: s.escape}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			s.stack = s.stack[:len(s.stack)-1]
			return true
		}
		if sel, ok := n.(*ast.SelectorExpr); ok {
			s.selection(sel)
		}
		e.node(n, s.stack)
		s.stack = append(s.stack, n)
		return true
	})
}

// selection records the fields sel reads (all its path but a written last
// field) and a generated method it calls.
func (s *fileScan) selection(sel *ast.SelectorExpr) {
	v, ok := s.info.Selections[sel]
	if !ok {
		return
	}
	if v.Kind() != types.FieldVal {
		s.method(sel, v)
		return
	}
	path := v.Index()
	if s.written(sel) {
		path = path[:len(path)-1]
	}
	t := v.Recv()
	for _, i := range path {
		t = s.field(t, i, sel.Sel.Pos())
	}
}

// field records field i of t (a struct, through pointers) when t is a
// record, and returns the field's type.
func (s *fileScan) field(t types.Type, i int, pos token.Pos) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return t
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		if key, ok := s.a.recordKey(n); ok {
			s.m.read(key, wireName(st, i), s.m.pos(s.a.fset, pos))
		}
	}
	return st.Field(i).Type()
}

// wireName is field i's contract name: the avro tag every generated record
// field carries (generator's fieldTags), else its Go name.
func wireName(st *types.Struct, i int) string {
	if name := reflect.StructTag(st.Tag(i)).Get("avro"); name != "" {
		return name
	}
	return st.Field(i).Name()
}

// written reports whether sel is the whole left side of a plain assignment.
func (s *fileScan) written(sel *ast.SelectorExpr) bool {
	if len(s.stack) == 0 {
		return false
	}
	as, ok := s.stack[len(s.stack)-1].(*ast.AssignStmt)
	if !ok || (as.Tok != token.ASSIGN && as.Tok != token.DEFINE) {
		return false
	}
	for _, l := range as.Lhs {
		if l == sel {
			return true
		}
	}
	return false
}

// method records a generated record's method that reads every field
// (AppendJSON and the codecs' methods), called or taken as a value; the
// loaded code's own methods are read like any other code.
func (s *fileScan) method(sel *ast.SelectorExpr, v *types.Selection) {
	fn, ok := v.Obj().(*types.Func)
	if !ok || staticMethods[fn.Name()] || s.a.generated(fn.Pkg()) == nil {
		return
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return
	}
	for _, key := range s.a.recordsIn(recv.Type()) {
		s.m.escape(key, "method "+fn.Name()+" reads every field", s.m.pos(s.a.fset, sel.Sel.Pos()))
	}
}

// escape records that the records e's value holds escape, and why.
func (s *fileScan) escape(e ast.Expr, why string) {
	tv, ok := s.info.Types[e]
	if !ok {
		return
	}
	for _, key := range s.a.recordsIn(tv.Type) {
		s.m.escape(key, why, s.m.pos(s.a.fset, e.Pos()))
	}
}
