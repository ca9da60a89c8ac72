package generator

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// directivePrefixes are the comment forms the go command, the compiler, cgo
// or gccgo read as directives when they start a // comment.
var directivePrefixes = []string{"//go:", "//line ", "//export ", "//extern ", "//sys"}

// hostileProblems parses a generated Go file and lists what contract text
// could have smuggled into it: a parse error, a block comment (generated
// comments are // lines only), a directive or build constraint in a
// comment. It returns the file's top-level declarations as well, for the
// caller to compare with what the contract asked for.
func hostileProblems(name string, src []byte) (decls []string, problems []string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, []string{fmt.Sprintf("%s does not parse: %v", name, err)}
	}
	for _, g := range f.Comments {
		for _, c := range g.List {
			problems = append(problems, commentProblems(fset.Position(c.Pos()).String(), c.Text)...)
		}
	}
	return topLevelDecls(f), problems
}

func commentProblems(pos, text string) []string {
	var out []string
	if strings.HasPrefix(text, "/*") {
		out = append(out, pos+": block comment "+fmt.Sprintf("%q", text))
	}
	for _, p := range directivePrefixes {
		if strings.HasPrefix(text, p) {
			out = append(out, pos+": directive "+fmt.Sprintf("%q", text))
		}
	}
	if constraint.IsGoBuild(text) || constraint.IsPlusBuild(text) {
		out = append(out, pos+": build constraint "+fmt.Sprintf("%q", text))
	}
	if strings.ContainsAny(text, "\x00\r\u0085\u2028\u2029\u202e\ufeff") {
		out = append(out, pos+": raw control or line-breaking character "+fmt.Sprintf("%q", text))
	}
	return out
}

// topLevelDecls names every top-level declaration: funcs (with their
// receiver), types, vars and consts, and init functions counted apart.
func topLevelDecls(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			out = append(out, "func "+recvName(d)+d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				out = append(out, hostileSpecNames(d.Tok, s)...)
			}
		}
	}
	slices.Sort(out)
	return out
}

func recvName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "."
	}
	return "?."
}

func hostileSpecNames(tok token.Token, s ast.Spec) []string {
	switch s := s.(type) {
	case *ast.TypeSpec:
		return []string{"type " + s.Name.Name}
	case *ast.ValueSpec:
		var out []string
		for _, n := range s.Names {
			out = append(out, tok.String()+" "+n.Name)
		}
		return out
	case *ast.ImportSpec:
		return []string{"import " + s.Path.Value}
	}
	return nil
}

// TestDocCommentInjectionStaysComment generates the hostile_text case,
// whose every text field (YAML and .avsc) tries to end a comment, declare
// code, add a go:generate or line directive or a build constraint, and holds
// NUL, NEL, LS, PS, CRLF, backquotes and quotes: the output parses, its
// comments are // lines without directives, and it declares nothing the
// contract did not ask for (no init, nothing named Injected or Evil).
func TestDocCommentInjectionStaysComment(t *testing.T) {
	res := Generate(caseSources(t, filepath.Join(goldenDir, "hostile_text")), goldenOptions("hostile_text")...)
	if len(res.Diagnostics) > 0 || len(res.Files) == 0 {
		t.Fatalf("want generated files, got diagnostics:\n%s", stderrOf(res.Diagnostics))
	}
	for _, f := range res.Files {
		decls, problems := hostileProblems(f.Path, f.Data)
		for _, p := range problems {
			t.Error(p)
		}
		for _, d := range decls {
			if d == "func init" || strings.Contains(d, "Injected") || strings.Contains(d, "Evil") {
				t.Errorf("%s: contract text declared %s", f.Path, d)
			}
		}
		if strings.Contains(string(f.Data), "\x00") {
			t.Errorf("%s holds a NUL byte", f.Path)
		}
	}
}

// TestGoCommentEscapesEveryLineAndDirective checks the comment rule line by
// line: what each hostile line becomes.
func TestGoCommentEscapesEveryLineAndDirective(t *testing.T) {
	cases := map[string]string{
		"":                         "//",
		"plain text":               "// plain text",
		"//go:generate rm -rf /":   "// //go:generate rm -rf /",
		"+build ignore":            `// \+build ignore`,
		"  +build ignore":          `// \  +build ignore`,
		"*/ func init() {} /*":     "// * / func init() {} / *",
		"a\x00b\u202ec\ufeffd\x7f": `// a\x00b\u202ec\ufeffd\x7f`,
		"bad \xff utf-8":           `// bad \xff utf-8`,
	}
	for in, want := range cases {
		if got := goComment(in); got != want {
			t.Errorf("goComment(%q) = %q, want %q", in, got, want)
		}
	}
	got := splitCommentLines("a\r\nb\rc\u0085d\u2028e\u2029f\vg\fh\ni")
	if want := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}; !slices.Equal(got, want) {
		t.Errorf("splitCommentLines = %q, want %q", got, want)
	}
}
