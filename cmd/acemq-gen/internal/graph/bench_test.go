package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/generator"
)

// The synthetic system of the benchmark: benchDomains domains of
// benchEvents events each (200 messages), benchServices service modules,
// each consuming benchConsumes events (reading two fields through a helper)
// and publishing as many.
const (
	benchDomains  = 10
	benchEvents   = 20
	benchServices = 20
	benchConsumes = 10
)

// BenchmarkGraphOf200MessagesAnd20Services builds the graph of a synthetic
// system written into a temporary directory: a contracts module with the
// generated packages and 20 service modules. The first module's load warms
// the build cache outside the timing (the first go list compiles the
// generated packages, as CI's go build does anyway). Run it with
//
//	go test -run '^$' -bench GraphOf200 -benchtime 1x ./cmd/acemq-gen/internal/graph/
func BenchmarkGraphOf200MessagesAnd20Services(b *testing.B) {
	root := os.Getenv("BENCH_ROOT")
	if root == "" {
		root = b.TempDir()
	}
	dirs := writeSystem(b, root)
	if _, err := Build(dirs[:1]); err != nil { // the build cache holds the generated packages, as after CI's go build
		b.Fatal(err)
	}
	for b.Loop() {
		g, err := Build(dirs)
		if err != nil {
			b.Fatal(err)
		}
		if len(g.Services) != benchServices {
			b.Fatalf("%d services, want %d", len(g.Services), benchServices)
		}
	}
}

// writeSystem writes the synthetic system into root and returns the
// service modules' directories.
func writeSystem(b *testing.B, root string) []string {
	repo, err := filepath.Abs("../../../..")
	if err != nil {
		b.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		b.Fatal(err)
	}
	writeModule(b, filepath.Join(root, "contracts"), "example.com/contracts", repo, sum)
	var srcs []generator.Source
	for d := range benchDomains {
		srcs = append(srcs, generator.Source{Path: fmt.Sprintf("d%d.acemq.yaml", d), Data: []byte(benchContract(d))})
	}
	res := generator.Generate(srcs, generator.ImportPath("example.com/contracts"))
	if res.Diagnostics.HasErrors() {
		b.Fatal(res.Diagnostics)
	}
	for _, f := range res.Files {
		writeFile(b, filepath.Join(root, "contracts", f.Path), string(f.Data))
	}
	var dirs []string
	for s := range benchServices {
		dir := filepath.Join(root, fmt.Sprintf("svc%d", s))
		writeModule(b, dir, fmt.Sprintf("example.com/svc%d", s), repo, sum)
		writeFile(b, filepath.Join(dir, "main.go"), benchService(s))
		dirs = append(dirs, dir)
	}
	return dirs
}

func writeModule(b *testing.B, dir, path, repo string, sum []byte) {
	gomod := fmt.Sprintf("module %s\n\ngo 1.26.0\n\nrequire (\n\tgithub.com/acemq/acemq-gen v0.0.0\n\texample.com/contracts v0.0.0\n)\n\n"+
		"replace github.com/acemq/acemq-gen => %s\n\nreplace example.com/contracts => ../contracts\n", path, repo)
	if path == "example.com/contracts" {
		gomod = fmt.Sprintf("module %s\n\ngo 1.26.0\n\nrequire github.com/acemq/acemq-gen v0.0.0\n\nreplace github.com/acemq/acemq-gen => %s\n", path, repo)
	}
	writeFile(b, filepath.Join(dir, "go.mod"), gomod)
	writeFile(b, filepath.Join(dir, "go.sum"), string(sum))
}

func writeFile(b *testing.B, path, data string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		b.Fatal(err)
	}
}

// benchContract is domain d's contract: benchEvents events of five fields.
func benchContract(d int) string {
	var c strings.Builder
	fmt.Fprintf(&c, "acemq: 1\ndomain: d%d\nnamespace: com.example.d%d\ncodec: json\nevents:\n", d, d)
	for e := range benchEvents {
		fmt.Fprintf(&c, "  E%d:\n    fields:\n      id: uuid\n      amount: long\n      note: string\n      count: int\n      tag: string?\n", e)
	}
	return c.String()
}

// benchService is service s's code: it consumes benchConsumes events and
// publishes as many, round robin over the 200.
func benchService(s int) string {
	var imports, body strings.Builder
	for d := range benchDomains {
		fmt.Fprintf(&imports, "\t\"example.com/contracts/d%d\"\n", d)
		fmt.Fprintf(&body, "\t_ = d%d.Exchange\n", d)
	}
	for i := range benchConsumes {
		n := (s*benchConsumes + i) % (benchDomains * benchEvents)
		in := fmt.Sprintf("d%d.E%d", n/benchEvents, n%benchEvents)
		out := fmt.Sprintf("d%d.E%d", (n+7)%(benchDomains*benchEvents)/benchEvents, (n+7)%benchEvents)
		fmt.Fprintf(&body, "\t_, _ = d%d.ConsumeE%d(ctx, conn, \"svc%d\", func(ctx context.Context, m acemq.Message[%s]) acemq.Ack {\n"+
			"\t\tkeep(m.Payload.Amount + int64(m.Payload.Count))\n"+
			"\t\t_ = %s.NewPublisher(conn).Publish%s(ctx, %s{ID: m.Payload.ID})\n\t\treturn acemq.Accept()\n\t})\n",
			n/benchEvents, n%benchEvents, s, in, strings.Split(out, ".")[0], strings.Split(out, ".")[1], out)
	}
	return "package main\n\nimport (\n\t\"context\"\n\n" + imports.String() + "\t\"github.com/acemq/acemq-gen/runtime/acemq\"\n)\n\n" +
		"var sink int64\n\nfunc keep(v int64) { sink += v }\n\nfunc run(ctx context.Context, conn *acemq.Conn) {\n" + body.String() + "}\n\nfunc main() {}\n"
}
