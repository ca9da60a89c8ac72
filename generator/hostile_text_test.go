package generator

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
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
	t.Run("golden case", func(t *testing.T) {
		checkNoInjection(t, Generate(caseSources(t, filepath.Join(goldenDir, "hostile_text")), goldenOptions("hostile_text")...))
	})
	// the issue's own examples, without the NUL that made the old output unparseable
	t.Run("block comment", func(t *testing.T) {
		issue := `"/*\n*/ func init() { println(\"INJECTED\") } /*\n*/"`
		checkNoInjection(t, Generate(hostileSourcesRaw(issue, issue)))
	})
	t.Run("go:generate", func(t *testing.T) {
		gen := `"//go:generate sh -c \"touch INJECTED\""`
		checkNoInjection(t, Generate(hostileSourcesRaw(gen, gen)))
	})
}

// hostileSourcesRaw fills the hostile contracts' slots with YAML and JSON
// text as written.
func hostileSourcesRaw(yamlText, jsonText string) []Source {
	return []Source{{Path: "shop.acemq.yaml", Data: fmt.Appendf(nil, hostileYAML, yamlText)},
		{Path: "shipped.avsc", Data: fmt.Appendf(nil, hostileAvsc, jsonText)}}
}

// checkNoInjection fails unless res generated files that parse, hold no
// block comment, directive or raw control character, and declare no init
// and nothing named Injected or Evil.
func checkNoInjection(t *testing.T, res Result) {
	t.Helper()
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

// hostileYAML is a contract with a slot (%[1]s) in every kind of text field
// (the hostile_text golden case covers commands and RPCs too; this one stays
// small, so that an iteration of the fuzz target is quick).
const hostileYAML = `acemq: 1
domain: shop
doc: %[1]s
types:
  Colour: {doc: %[1]s, deprecated: %[1]s, enum: [red, green], default: red}
  Line:
    doc: %[1]s
    deprecated: %[1]s
    fields:
      sku: {type: string, doc: %[1]s, deprecated: %[1]s}
      colour: Colour
events:
  OrderPlaced:
    doc: %[1]s
    deprecated: %[1]s
    headers:
      x-tenant: {type: string, doc: %[1]s}
    fields: {line: Line}
`

// hostileAvsc is an .avsc type (a type library) with a slot (%[1]s) in
// every text field.
const hostileAvsc = `{"type": "record", "name": "Parcel", "namespace": "parcels",
  "doc": %[1]s, "deprecated": %[1]s,
  "fields": [
    {"name": "orderId", "type": "string", "doc": %[1]s, "deprecated": %[1]s},
    {"name": "size", "type": {"type": "enum", "name": "Size", "doc": %[1]s, "symbols": ["S", "M"]}}]}
`

// yamlQuoted is s as a YAML double-quoted scalar that reads back as s
// (invalid UTF-8, which YAML cannot hold, becomes U+FFFD).
func yamlQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String() + `"`
}

// hostileSources is the YAML and .avsc contract with text in every text field.
func hostileSources(text string) []Source {
	js, _ := json.Marshal(strings.ToValidUTF8(text, "\uFFFD"))
	return []Source{{Path: "shop.acemq.yaml", Data: fmt.Appendf(nil, hostileYAML, yamlQuoted(text))},
		{Path: "shipped.avsc", Data: fmt.Appendf(nil, hostileAvsc, js)}}
}

// generatedDecls generates the hostile contracts with text and returns each
// file's top-level declarations, failing on any problem hostileProblems finds.
func generatedDecls(t *testing.T, text string) map[string][]string {
	t.Helper()
	res := Generate(hostileSources(text))
	if len(res.Diagnostics) > 0 || len(res.Files) == 0 {
		t.Fatalf("text %q: want generated files, got diagnostics:\n%s", text, stderrOf(res.Diagnostics))
	}
	out := map[string][]string{}
	for _, f := range res.Files {
		decls, problems := hostileProblems(f.Path, f.Data)
		for _, p := range problems {
			t.Errorf("text %q: %s", text, p)
		}
		out[f.Path] = decls
	}
	return out
}

// FuzzGenerateHostileText puts fuzzed text into every text field of a YAML
// and an .avsc contract: the generated files parse, hold no block comment,
// directive or build constraint, and declare exactly what they declare for
// benign text.
func FuzzGenerateHostileText(f *testing.F) {
	for _, s := range []string{"/*\n*/ func init() { println(\"INJECTED\") } /*\n*/", "//go:generate sh -c \"x\"",
		"+build ignore", "a\x00b\u0085c\u2028d\u2029e\r\nf", "`raw` \"q\" \ufeff\u202e", "*/", "\t//line x.go:1", "\xff\xfe"} {
		f.Add(s)
	}
	want := map[string][]string{}
	f.Fuzz(func(t *testing.T, text string) {
		if len(want) == 0 {
			want = generatedDecls(t, "benign text")
		}
		done := make(chan map[string][]string, 1)
		go func() { done <- generatedDecls(t, text) }()
		var got map[string][]string
		select {
		case got = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("generate did not return for text %q", text) // a hang, not a timing assertion
		}
		for path, decls := range want {
			if !slices.Equal(got[path], decls) {
				t.Fatalf("text %q changed the declarations of %s:\n got %q\nwant %q", text, path, got[path], decls)
			}
		}
	})
}
