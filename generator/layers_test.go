package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Only parse reads YAML: the model, validation, naming and emission get
// decoded values with their positions (a field default is an sValue).
func TestOnlyParseReadsTheYAMLTree(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "parse_") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(p, "github.com/goccy/go-yaml") {
				t.Errorf("%s imports %s: only parse_*.go reads the YAML tree", name, p)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked %d files, want the generator's", checked)
	}
}

// stage is the stage a generator file belongs to: validate or emit.
func stage(file string) string {
	for _, s := range []string{"validate", "emit"} {
		if strings.HasPrefix(file, s) {
			return s
		}
	}
	return ""
}

// Validation and emission both ask names.go and the model, never each
// other: a name one of them spells for itself would escape the other. (A
// local name spelled as a declaration of the other stage is reported too:
// rename it.)
func TestValidationAndEmissionUseNoneOfEachOthersDeclarations(t *testing.T) {
	fset := token.NewFileSet()
	pkgFiles := map[string]*ast.File{}
	declared := map[string]string{} // package-level name → stage of its file
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		pkgFiles[name] = f
		for _, n := range topLevelNames(f) {
			declared[n] = stage(name)
		}
	}
	for name, f := range pkgFiles {
		own := stage(name)
		if own == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			if other := declared[id.Name]; other != "" && other != own {
				t.Errorf("%s: %s uses %s, declared by a %s_*.go file", fset.Position(id.Pos()), own, id.Name, other)
			}
			return true
		})
	}
}

// topLevelNames are the functions, types, variables and constants a file
// declares (methods are not reachable without their type).
func topLevelNames(f *ast.File) []string {
	var out []string
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			out = append(out, specNames(d)...)
		}
	}
	return out
}
