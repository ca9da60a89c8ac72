package generator

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// declaredNames returns every identifier a generated file declares at
// package level, methods written Type.Method.
func declaredNames(t *testing.T, path string, src []byte) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%s does not parse: %v", path, err)
	}
	var out []string
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			out = append(out, funcName(d))
		case *ast.GenDecl:
			out = append(out, specNames(d)...)
		}
	}
	return slices.DeleteFunc(out, func(n string) bool { return n == "_" })
}

func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil {
		return d.Name.Name
	}
	typ := d.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	return typ.(*ast.Ident).Name + "." + d.Name.Name
}

func specNames(d *ast.GenDecl) []string {
	var out []string
	for _, spec := range d.Specs {
		switch s := spec.(type) {
		case *ast.TypeSpec:
			out = append(out, s.Name.Name)
		case *ast.ValueSpec:
			for _, n := range s.Names {
				out = append(out, n.Name)
			}
		}
	}
	return out
}

// authorityNames is the set domainNames lists for the domain of package pkg.
func authorityNames(t *testing.T, m *model, pkg string) map[string]bool {
	t.Helper()
	for _, dom := range m.Domains {
		if dom.Package == pkg {
			out := map[string]bool{}
			for _, n := range domainNames(dom) {
				out[n.name] = true
			}
			return out
		}
	}
	t.Fatalf("no domain generates package %s", pkg)
	return nil
}

// generatingCases are the golden cases that generate packages: those with
// no want.stderr.
func generatingCases(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, name := range goldenCases(t) {
		if _, err := os.Stat(filepath.Join(goldenDir, name, "want.stderr")); err == nil {
			continue
		}
		names = append(names, name)
	}
	return names
}

// A name emission adds without adding it to names.go's list would escape the
// collision check; every identifier of every golden package must be listed.
func TestEveryIdentifierOfTheGoldenPackagesIsListedByTheNamingAuthority(t *testing.T) {
	for _, name := range generatingCases(t) {
		dir := filepath.Join(goldenDir, name)
		srcs := caseSources(t, dir)
		m, ds := build(srcs)
		res := Generate(srcs, goldenOptions(name)...)
		if ds.HasErrors() || len(res.Diagnostics) > 0 {
			t.Fatalf("%s: %s", name, stderrOf(append(ds, res.Diagnostics...)))
		}
		for _, f := range res.Files {
			listed := authorityNames(t, m, strings.Split(f.Path, "/")[0])
			for _, n := range declaredNames(t, f.Path, f.Data) {
				if !listed[n] {
					t.Errorf("%s: %s declares %s, which domainNames does not list", name, f.Path, n)
				}
			}
		}
	}
}

// shapeOf returns a function that writes an identifier of dom's package with
// every name the contract gives (messages, RPCs, types, unions, headers,
// errors) as "·" where it is a whole word of the identifier: the spelling
// rule the identifier follows.
func shapeOf(dom *domain) func(string) string {
	var given []string
	for _, m := range dom.Messages {
		given = append(given, m.Name)
	}
	for _, r := range dom.RPCs {
		given = append(given, r.Name)
	}
	for _, rec := range allRecords(dom) {
		given = append(given, rec.Name)
		for _, f := range unionFields(rec) {
			given = append(given, f.Type.Iface)
		}
	}
	for _, h := range optionHeaders(dom) {
		given = append(given, h.GoName)
	}
	for _, x := range declaredErrors(dom) {
		given = append(given, x.Name)
	}
	for _, n := range slices.Clone(given) {
		given = append(given, unexported(n))
	}
	slices.SortFunc(given, func(a, b string) int { return len(b) - len(a) }) // longest first
	return func(id string) string {
		var b strings.Builder
		for i := 0; i < len(id); {
			if n := givenAt(id, i, given); n > 0 {
				b.WriteString("·")
				i += n
				continue
			}
			b.WriteByte(id[i])
			i++
		}
		return b.String()
	}
}

// givenAt is the length of the longest given name that is a whole word of id
// at i (starting it, after a dot or at a capital; ending it, before a dot or
// before a capital), or 0.
func givenAt(id string, i int, given []string) int {
	start := i == 0 || id[i-1] == '.' || unicode.IsUpper(rune(id[i]))
	for _, n := range given {
		end := i + len(n)
		if start && strings.HasPrefix(id[i:], n) &&
			(end == len(id) || id[end] == '.' || unicode.IsUpper(rune(id[end]))) {
			return len(n)
		}
	}
	return 0
}

// A name the authority still lists after emission stopped writing it (a
// deleted helper, a method of a type that became an alias) refuses contract
// names for nothing; every kind of identifier domainNames lists must be
// declared by some golden package.
func TestTheNamingAuthorityListsNoKindOfIdentifierNoGoldenPackageDeclares(t *testing.T) {
	declared := map[string]bool{}
	listed := map[string]string{} // shape → an identifier of that shape
	for _, name := range generatingCases(t) {
		dir := filepath.Join(goldenDir, name)
		srcs := caseSources(t, dir)
		m, _ := build(srcs)
		res := Generate(srcs, goldenOptions(name)...)
		shapes := map[string]func(string) string{}
		for _, dom := range m.Domains {
			shape := shapeOf(dom)
			shapes[dom.Package] = shape
			for _, n := range domainNames(dom) {
				listed[shape(n.name)] = fmt.Sprintf("%s (%s, case %s)", n.name, n.what, name)
			}
		}
		for _, f := range res.Files {
			shape := shapes[strings.Split(f.Path, "/")[0]]
			for _, n := range declaredNames(t, f.Path, f.Data) {
				declared[shape(n)] = true
			}
		}
	}
	if len(declared) < 40 {
		t.Fatalf("the goldens declare %d kinds of identifier, want the generator's", len(declared))
	}
	for shape, example := range listed {
		if !declared[shape] {
			t.Errorf("domainNames lists %s, but no golden package declares an identifier of its kind (%s)", example, shape)
		}
	}
}

// everyName is a contract that generates every kind of identifier: enums,
// fixed types, unions with Avro mirrors, JSON forms, headers, text payloads,
// events, commands, RPCs and their errors. Its types: section comes last, so
// a test can append a type.
const everyName = `acemq: 1
domain: orders
events:
  OrderPlaced:
    codec: avro
    fields:
      orderId: uuid
      item: {union: [long, Sku]}
      status: OrderStatus
    headers:
      x-tenant: {type: string, required: true}
  NoteAdded:
    codec: text
    fields:
      text: string
  Timed:
    fields:
      took: time-millis
commands:
  CancelOrder:
    fields:
      orderId: uuid
      hash: {fixed: 8}
rpc:
  GetOrder:
    request:
      fields: {orderId: uuid}
    response:
      fields: {total: 'decimal(8,2)', pick: {union: [string, long]}}
    errors: [NotFound]
types:
  OrderStatus:
    enum: [pending, paid]
  Sku:
    fields:
      code: string
  Digest:
    fixed: 16
`

// generateEvery builds and generates src, failing on any diagnostic.
func generateEvery(t *testing.T, src string) (*model, []File) {
	t.Helper()
	srcs := []Source{{Path: "orders.acemq.yaml", Data: []byte(src)}}
	m, ds := build(srcs)
	res := Generate(srcs)
	if ds.HasErrors() || len(res.Diagnostics) > 0 {
		t.Fatalf("the contract does not generate:\n%s", stderrOf(append(ds, res.Diagnostics...)))
	}
	return m, res.Files
}

// Any exported identifier the package declares, taken by a type of the
// contract, is refused with the position of one of the two.
func TestATypeNamedAsAnyGeneratedIdentifierIsRefusedWithItsPosition(t *testing.T) {
	m, files := generateEvery(t, everyName)
	contract := map[string]bool{}
	for _, rec := range allRecords(m.Domains[0]) {
		contract[rec.Name] = true
	}
	line := strings.Count(everyName, "\n") + 1
	checked := 0
	for _, n := range declaredNames(t, files[0].Path, files[0].Data) {
		if !typeNameRE.MatchString(n) || contract[n] {
			continue // a method, an unexported helper, or a name the contract itself gave
		}
		checked++
		src := everyName + fmt.Sprintf("  %s:\n    fields: {x: string}\n", n)
		res := Generate([]Source{{Path: "orders.acemq.yaml", Data: []byte(src)}})
		if !refusedAt(res.Diagnostics, "type "+n, n) {
			t.Errorf("a type %s (line %d) is not refused as a Go-name collision with a position:\n%s", n, line, stderrOf(res.Diagnostics))
		}
	}
	if checked < 40 {
		t.Fatalf("checked %d generated names, want at least 40", checked)
	}
}

// refusedAt reports whether ds holds a Go-name collision naming who and
// becoming name, at a file:line:col.
func refusedAt(ds Diagnostics, who, name string) bool {
	return slices.ContainsFunc(ds, func(d Diagnostic) bool {
		return d.Severity == Error && d.Pos.File == "orders.acemq.yaml" && d.Pos.Line > 0 && d.Pos.Col > 0 &&
			strings.Contains(d.Message, "Go-name collision: ") && strings.Contains(d.Message, who) &&
			strings.HasSuffix(d.Message, " become "+name)
	})
}

func TestTwoNamesMeetingInAnyGeneratedIdentifierAreRefusedWithAPosition(t *testing.T) {
	cases := []struct {
		name, contract, who, becomes, at string
	}{
		{"an rpc named Close is the Client's Close", `acemq: 1
domain: orders
rpc:
  Close:
    request: {fields: {id: string}}
    response: {fields: {ok: boolean}}
`, "the Client.Close of rpc Close", "Client.Close", "orders.acemq.yaml:4:3"},
		{"a field named as the MarshalJSON its JSON forms need", `acemq: 1
domain: orders
events:
  Timed:
    fields:
      took: time-millis
      marshalJSON: string
`, `field "marshalJSON" of Timed becomes MarshalJSON`, "", "orders.acemq.yaml:7:7"},
		{"two events whose unexported helpers meet", `acemq: 1
domain: orders
events:
  HTTPCall:
    routing-key: http.one
    fields: {id: string}
  HttpCall:
    routing-key: http.two
    fields: {id: string}
`, "the httpCallSpec of event HttpCall", "httpCallSpec", "orders.acemq.yaml:7:3"},
		{"a field named as a text payload's String", `acemq: 1
domain: orders
events:
  Said:
    codec: text
    fields:
      string: string
`, `field "string" of Said becomes String`, "", "orders.acemq.yaml:7:7"},
		{"a type named as a union's branch", `acemq: 1
domain: orders
events:
  Placed:
    fields:
      item: {union: [long, string]}
types:
  PlacedItemLong:
    fields: {x: string}
`, "the union of field item of Placed", "PlacedItemLong", "orders.acemq.yaml:6:7"},
		{"a type named as an enum's constant", `acemq: 1
domain: orders
types:
  Status:
    enum: [paid]
  StatusPaid:
    fields: {x: string}
`, "symbol paid of enum Status", "StatusPaid", "orders.acemq.yaml:6:3"},
		{"a type named as a declared error", `acemq: 1
domain: orders
rpc:
  GetOrder:
    request: {fields: {id: string}}
    response: {fields: {ok: boolean}}
    errors: [NotFound]
types:
  ErrNotFound:
    fields: {x: string}
`, "the declared error NotFound", "ErrNotFound", "orders.acemq.yaml:7:14"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Generate([]Source{{Path: "orders.acemq.yaml", Data: []byte(c.contract)}})
			found := slices.ContainsFunc(res.Diagnostics, func(d Diagnostic) bool {
				return d.Pos.String() == c.at && strings.Contains(d.Message, "Go-name collision") &&
					strings.Contains(d.Message, c.who) && strings.HasSuffix(d.Message, c.becomes)
			})
			if !found {
				t.Errorf("want a Go-name collision at %s naming %q (becoming %s), got:\n%s", c.at, c.who, c.becomes, stderrOf(res.Diagnostics))
			}
		})
	}
}

// The methods of a type that lost its name follow it: the collision is
// reported once, not once more per schema method. (A type and a message of
// one name are one name declared twice: issue 23 item 6.)
func TestATypeAndAMessageOfOneNameAreOneCollisionNotOnePerMethod(t *testing.T) {
	res := Generate([]Source{{Path: "orders.acemq.yaml", Data: []byte(`acemq: 1
domain: orders
types:
  Placed:
    fields: {x: string}
events:
  Placed:
    fields: {y: string}
`)}})
	want := "orders.acemq.yaml:7:3: type Placed is already declared at orders.acemq.yaml:4:3\n"
	if got := stderrOf(res.Diagnostics); got != want {
		t.Fatalf("got:\n%swant:\n%s", got, want)
	}
}
