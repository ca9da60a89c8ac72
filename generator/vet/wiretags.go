package vet

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// WireTags reports a struct used as the payload type of acemq.NewPublisher,
// acemq.Consume, acemq.PublishWith or patterns.Serve with an exported field
// that has no json tag (seed 004): the field goes on the wire under its Go
// name, capitals and all, and nothing in another language reads it. Types
// declared in generated files are never reported (generated types carry
// their tags), and neither are types that encode themselves (MarshalJSON or
// MarshalText).
var WireTags = &analysis.Analyzer{
	Name: "wiretags",
	Doc: "report payload structs whose exported fields lack json tags\n\n" +
		"A struct used as T of acemq.NewPublisher[T], acemq.Consume[T], acemq.PublishWith[T] or\n" +
		"patterns.Serve goes on the wire under its Go field names when its fields are untagged,\n" +
		"and no other language in the family reads them: tag every exported field.",
	Run: honouringIgnores(runWireTags),
}

// wireFuncs are the generic functions whose type arguments go on the wire.
var wireFuncs = []struct{ path, name string }{
	{acemqPath, "NewPublisher"}, {acemqPath, "Consume"}, {acemqPath, "PublishWith"}, {patternsPath, "Serve"},
}

func runWireTags(pass *analysis.Pass) (any, error) {
	w := &wireCheck{pass: pass, generated: map[string]bool{}}
	for _, f := range handwritten(pass) {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				w.call(call)
			}
			return true
		})
	}
	return nil, nil
}

// wireCheck is one pass's wiretags state: which declaring files are
// generated, read once each.
type wireCheck struct {
	pass      *analysis.Pass
	generated map[string]bool
}

func (w *wireCheck) call(call *ast.CallExpr) {
	name, ok := wireFuncName(w.pass.TypesInfo, call)
	if !ok {
		return
	}
	inst, ok := w.pass.TypesInfo.Instances[funIdent(call)]
	if !ok {
		return
	}
	args := make([]string, inst.TypeArgs.Len())
	for i := range args {
		args[i] = typeString(w.pass, inst.TypeArgs.At(i))
	}
	for i := range args {
		if field, owner := w.untagged(inst.TypeArgs.At(i), map[types.Type]bool{}); field != nil {
			w.pass.Reportf(call.Lparen, "%s[%s]: field %s.%s has no json tag, so it goes on the wire as %q and no other language reads it; tag the exported fields",
				name, strings.Join(args, ", "), owner, field.Name(), field.Name())
		}
	}
}

// wireFuncName returns "pkg.Name" when call calls one of wireFuncs.
func wireFuncName(info *types.Info, call *ast.CallExpr) (string, bool) {
	obj := calleeOf(info, call)
	for _, f := range wireFuncs {
		if isFunc(obj, f.path, f.name) {
			return obj.Pkg().Name() + "." + f.name, true
		}
	}
	return "", false
}

// untagged returns the first exported field without a json tag reachable
// from t (through pointers, slices, arrays, maps and fields), and the name of
// the struct that declares it.
func (w *wireCheck) untagged(t types.Type, seen map[types.Type]bool) (*types.Var, string) {
	if seen[t] || w.selfEncoding(t) {
		return nil, ""
	}
	seen[t] = true
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		if w.declaredInGenerated(u.Obj()) {
			return nil, ""
		}
		if s, ok := u.Underlying().(*types.Struct); ok {
			return w.structField(s, u.Obj().Name(), seen)
		}
		return w.untagged(u.Underlying(), seen)
	case *types.Pointer:
		return w.untagged(u.Elem(), seen)
	case *types.Slice:
		return w.untagged(u.Elem(), seen)
	case *types.Array:
		return w.untagged(u.Elem(), seen)
	case *types.Map:
		return w.untagged(u.Elem(), seen)
	case *types.Struct:
		return w.structField(u, "struct", seen)
	}
	return nil, ""
}

// structField checks s's exported fields: an untagged embedded struct is
// flattened by encoding/json, so its own fields are what count.
func (w *wireCheck) structField(s *types.Struct, owner string, seen map[types.Type]bool) (*types.Var, string) {
	for i := range s.NumFields() {
		f := s.Field(i)
		tag, tagged := reflect.StructTag(s.Tag(i)).Lookup("json")
		if !f.Exported() || tag == "-" {
			continue
		}
		if _, avro := reflect.StructTag(s.Tag(i)).Lookup("avro"); avro {
			tagged = true // runtime/avro's codec reads the avro tag
		}
		if !tagged && !f.Embedded() {
			return f, owner
		}
		if v, o := w.untagged(f.Type(), seen); v != nil {
			return v, o
		}
	}
	return nil, ""
}

// selfEncoding reports whether t (or *t) has its own JSON or text form.
func (w *wireCheck) selfEncoding(t types.Type) bool {
	for _, m := range []string{"MarshalJSON", "MarshalText"} {
		if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, m); obj != nil {
			if _, ok := obj.(*types.Func); ok {
				return true
			}
		}
	}
	return false
}

// declaredInGenerated reports whether obj is declared in a file carrying the
// generated-code header, reading that file's header once per pass.
func (w *wireCheck) declaredInGenerated(obj types.Object) bool {
	file := w.pass.Fset.Position(obj.Pos()).Filename
	if file == "" || !skipGenerated {
		return false
	}
	gen, ok := w.generated[file]
	if !ok {
		gen = w.fileIsGenerated(file)
		w.generated[file] = gen
	}
	return gen
}

func (w *wireCheck) fileIsGenerated(file string) bool {
	for _, f := range w.pass.Files {
		if w.pass.Fset.Position(f.Package).Filename == file {
			return ast.IsGenerated(f)
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly|parser.ParseComments)
	return err == nil && ast.IsGenerated(f)
}
