package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// specCompareProgram compares, in one process, the specification values
// generated packages declare with the ones contractspec builds from the
// same contracts, field by field: Codec by building both on a connection
// with a memory registry and a keyring and reading with the built one what
// the generated one writes; Errors by code; every other field by
// reflect.DeepEqual. It prints one line a difference and exits 1 on any.
const specCompareProgram = `package main

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/generator/contractspec"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/avro"
	"github.com/acemq/acemq-gen/runtime/crypto"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

var conn *acemq.Conn

// goldenPackage is one generated package: its contracts, its domain, and
// its specification values by message name.
type goldenPackage struct {
	where, domain string
	paths         []string
	specs         map[string]any
	topology      func() *acemq.Topology
}

func main() {
	kr, err := crypto.NewKeyring(crypto.Key{ID: "k1", Secret: make([]byte, 32)})
	if err != nil {
		panic(err)
	}
	conn, err = acemq.Connect(context.Background(), "memory://spec-compare", avro.WithRegistry(avro.NewMemoryRegistry()), crypto.WithKeyring(kr))
	if err != nil {
		panic(err)
	}
	bad, n := 0, 0
	for _, p := range packages {
		srcs, err := generator.ReadSources(p.paths)
		if err != nil {
			panic(err)
		}
		entries, ds := generator.Catalog(srcs)
		if ds.HasErrors() {
			fmt.Printf("SPEC %s: the catalog fails: %v\n", p.where, ds)
			bad++
			continue
		}
		var own []generator.Entry
		for _, e := range entries {
			if e.Domain == p.domain {
				own = append(own, e)
			}
		}
		bad += comparePlans(p, own)
		for _, e := range own {
			want, ok := p.specs[e.Name]
			if !ok {
				fmt.Printf("SPEC %s: the package declares no spec of %s\n", p.where, e.Name)
				bad++
				continue
			}
			var got any = contractspec.Message(e)
			switch e.Kind {
			case "rpc":
				got = contractspec.RPC(e)
			case "stream":
				got = contractspec.Stream(e)
			}
			for _, d := range compare(got, want) {
				fmt.Printf("SPEC %s %s: %s\n", p.where, e.Name, d)
				bad++
			}
			n++
		}
		if len(own) != len(p.specs) {
			fmt.Printf("SPEC %s: the package declares %d specs, the catalog has %d entries\n", p.where, len(p.specs), len(own))
			bad++
		}
	}
	fmt.Printf("compared %d specifications and %d topologies\n", n, plans)
	_ = bad
}

// comparePlans prints where the plan of the CLI's topology of own differs
// from the generated package's Topology(), and returns 1 if it does.
func comparePlans(p goldenPackage, own []generator.Entry) int {
	t, err := contractspec.Topology(own, nil)
	if err != nil {
		fmt.Printf("PLAN %s: the CLI's topology: %v\n", p.where, err)
		return 1
	}
	got, want := t.Plan(), p.topology().Plan()
	if !reflect.DeepEqual(got, want) {
		fmt.Printf("PLAN %s: the CLI plans [%s]; the generated DeclareTopology declares [%s]\n", p.where,
			strings.Join(got, "; "), strings.Join(want, "; "))
		return 1
	}
	plans++
	return 0
}

var plans int

// compare lists the fields in which got and want, pointers to spec structs, differ.
func compare(got, want any) []string {
	g, w := reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem()
	var out []string
	if g.NumField() != w.NumField() {
		out = append(out, fmt.Sprintf("%d fields, want %d", g.NumField(), w.NumField()))
	}
	for i := range w.NumField() {
		name := w.Type().Field(i).Name
		gf, wf := g.FieldByName(name), w.Field(i)
		var d string
		switch name {
		case "Codec":
			d = compareCodecs(gf.Interface().(func(*acemq.Conn) (acemq.Codec, error)),
				wf.Interface().(func(*acemq.Conn) (acemq.Codec, error)), payloadOf(want))
		case "Errors":
			d = compareErrors(gf.Interface().([]*patterns.DeclaredError), wf.Interface().([]*patterns.DeclaredError))
		default:
			if !reflect.DeepEqual(gf.Interface(), wf.Interface()) {
				d = fmt.Sprintf("%#v, want %#v", gf.Interface(), wf.Interface())
			}
		}
		if d != "" {
			out = append(out, name+": "+d)
		}
	}
	return out
}

// payloadOf is a new zero payload of the spec: the Payload of the
// acemq.Message its Serve or Consume handler takes.
func payloadOf(spec any) reflect.Value {
	m, ok := reflect.TypeOf(spec).MethodByName("Serve")
	if !ok {
		m, ok = reflect.TypeOf(spec).MethodByName("Consume")
	}
	if !ok {
		m, _ = reflect.TypeOf(spec).MethodByName("Read")
	}
	for i := range m.Type.NumIn() {
		if in := m.Type.In(i); in.Kind() == reflect.Func && in.NumIn() == 2 {
			f, _ := in.In(1).FieldByName("Payload")
			return reflect.New(f.Type)
		}
	}
	panic("no handler")
}

func compareCodecs(got, want func(*acemq.Conn) (acemq.Codec, error), payload reflect.Value) string {
	gc, gerr := got(conn)
	wc, werr := want(conn)
	if gerr != nil || werr != nil {
		return fmt.Sprintf("building: %v, want %v", gerr, werr)
	}
	if gc.ContentType() != wc.ContentType() {
		return fmt.Sprintf("content type %s, want %s", gc.ContentType(), wc.ContentType())
	}
	body, err := wc.Encode(payload.Elem().Interface())
	if err != nil {
		return "" // a zero payload the contract's codec refuses to write (an enum, a fixed): nothing to read
	}
	var v any
	if err := gc.Decode(body, &v); err != nil {
		var s string
		if err2 := gc.Decode(body, &s); err2 != nil {
			return fmt.Sprintf("cannot read what the generated codec writes: %v", err)
		}
	}
	return ""
}

func compareErrors(got, want []*patterns.DeclaredError) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d errors, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Code() != want[i].Code() {
			return fmt.Sprintf("error %d is %s, want %s", i, got[i].Code(), want[i].Code())
		}
	}
	return ""
}
`

// TestCLISpecEqualsGeneratedSpec proves, for every golden case, that the
// specification the CLI builds from a contract (contractspec) equals, field
// for field, the one the generated package declares.
func TestCLISpecEqualsGeneratedSpec(t *testing.T) {
	out := specComparison(t)
	if diffs := linesWith(out, "SPEC "); len(diffs) > 0 || !strings.Contains(out, "compared ") {
		t.Fatalf("the CLI's specifications differ from the generated ones:\n%s", strings.Join(diffs, "\n"))
	}
}

// TestPlanDeclaresWhatDeclareTopologyDeclares proves, for every golden
// case, that the topology plan and dlq build (contractspec.Topology)
// declares what the generated package's DeclareTopology declares: the same
// exchanges, queues, arguments and bindings, in the same order.
func TestPlanDeclaresWhatDeclareTopologyDeclares(t *testing.T) {
	out := specComparison(t)
	if diffs := linesWith(out, "PLAN "); len(diffs) > 0 || strings.Contains(out, "and 0 topologies") {
		t.Fatalf("plan differs from DeclareTopology:\n%s", strings.Join(diffs, "\n"))
	}
}

func linesWith(out, prefix string) []string {
	var ls []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			ls = append(ls, l)
		}
	}
	return ls
}

var specCompare struct {
	once sync.Once
	out  string
	err  error
}

// specComparison runs specCompareProgram over every golden package, once
// for both tests (compiling the goldens costs most of the time), and
// returns its output.
func specComparison(t *testing.T) string {
	t.Helper()
	specCompare.once.Do(func() { specCompare.out, specCompare.err = runSpecComparison(t) })
	if specCompare.err != nil {
		t.Fatalf("the comparison program failed: %v\n%s", specCompare.err, specCompare.out)
	}
	t.Log(strings.TrimSpace(specCompare.out[strings.LastIndex(specCompare.out, "compared"):]))
	return specCompare.out
}

func runSpecComparison(t *testing.T) (string, error) {
	root, err := filepath.Abs("..")
	must(t, err)
	mod, err := os.MkdirTemp("", "acemq-spec-compare-")
	must(t, err)
	defer os.RemoveAll(mod)
	copyGoldenPackages(t, mod)
	writeModule(t, mod, root)
	var imports, pkgs strings.Builder
	n := 0
	for _, name := range goldenCases(t) {
		dir := filepath.Join(goldenDir, name)
		if _, err := os.Stat(filepath.Join(dir, "want")); err != nil {
			continue
		}
		m, ds := build(caseSources(t, dir))
		if ds.HasErrors() {
			return "", fmt.Errorf("%s: %v", name, ds)
		}
		for _, d := range m.Domains {
			if len(d.Messages)+len(d.RPCs)+len(d.Streams) == 0 {
				continue
			}
			alias := fmt.Sprintf("p%d", n)
			n++
			exportSpecs(t, filepath.Join(mod, name, d.Package), d)
			fmt.Fprintf(&imports, "\t%s %q\n", alias, goldenImportPath(name)+"/"+d.Package)
			fmt.Fprintf(&pkgs, "\t{where: %q, domain: %q, paths: []string{%q}, specs: %s.AcemqSpecs(), topology: %s.Topology},\n",
				name+"/"+d.Package, d.Name, absDir(t, dir), alias, alias)
		}
	}
	prog := strings.Replace(specCompareProgram, "import (\n", "import (\n"+imports.String(), 1) +
		"\nvar packages = []goldenPackage{\n" + pkgs.String() + "}\n"
	out, err := runGoldenProgram(t, mod, "speccompare", prog)
	return string(out), err
}

// exportSpecs adds to the generated package in dir a function AcemqSpecs
// returning its specification values by message name.
func exportSpecs(t *testing.T, dir string, d *domain) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nfunc AcemqSpecs() map[string]any {\n\treturn map[string]any{\n", d.Package)
	for _, m := range d.Messages {
		fmt.Fprintf(&b, "\t\t%q: %s,\n", m.Name, specVar(m.Name))
	}
	for _, r := range d.RPCs {
		fmt.Fprintf(&b, "\t\t%q: %s,\n", r.Name, specVar(r.Name))
	}
	for _, s := range d.Streams {
		fmt.Fprintf(&b, "\t\t%q: %s,\n", s.Name, specVar(s.Name))
	}
	b.WriteString("\t}\n}\n")
	must(t, os.WriteFile(filepath.Join(dir, "zz_specs_test_export.go"), []byte(b.String()), 0o644))
}

func absDir(t *testing.T, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	must(t, err)
	return abs
}
