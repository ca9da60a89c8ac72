package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
}

func TestReadSourcesFollowsImportsAndSchemasAndReadsEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"contracts/orders.acemq.yaml": "acemq: 1\ndomain: orders\nimports: {m: ../lib/money.acemq.yaml}\n" +
			"events:\n  OrderShipped: {schema: avro/order_shipped.avsc}\n",
		"lib/money.acemq.yaml":              "acemq: 1\npackage: money\ntypes: {Money: {fields: {cents: long}}}\n",
		"contracts/avro/order_shipped.avsc": `{"type": "record", "name": "OrderShipped", "namespace": "orders", "fields": []}`,
	})
	money := filepath.Join(dir, "lib", "money.acemq.yaml")
	srcs, err := ReadSources([]string{filepath.Join(dir, "contracts", "orders.acemq.yaml"), money})
	must(t, err)
	var names []string
	for _, s := range srcs {
		names = append(names, filepath.Base(s.Path))
	}
	if got := strings.Join(names, ","); got != "orders.acemq.yaml,money.acemq.yaml,order_shipped.avsc" {
		t.Fatalf("read %s", got)
	}
	if res := Generate(srcs, ImportPath("example.com/x")); len(res.Diagnostics) > 0 || len(res.Files) != 2 {
		t.Fatalf("files %d, diagnostics:\n%s", len(res.Files), stderrOf(res.Diagnostics))
	}
}

func TestADirectorySearchFindsAvscFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a/geo.avsc": `{"type": "fixed", "name": "Hash", "namespace": "com.acme.geo", "size": 4}`,
		".hidden/x.avsc": "not read"})
	srcs, err := ReadSources([]string{dir})
	must(t, err)
	if len(srcs) != 1 || filepath.Base(srcs[0].Path) != "geo.avsc" {
		t.Fatalf("read %v", srcs)
	}
}

func TestUsingAnotherPackagesTypeWithoutAnImportPathIsADiagnostic(t *testing.T) {
	res := Generate(caseSources(t, filepath.Join(goldenDir, "imports")))
	if len(res.Files) != 0 || len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "import path") {
		t.Fatalf("files %d, diagnostics:\n%s", len(res.Files), stderrOf(res.Diagnostics))
	}
}
