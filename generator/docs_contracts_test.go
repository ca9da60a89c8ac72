package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// contractsDoc is the contract format's reference, whose examples must build.
const contractsDoc = "../docs/contracts.md"

// docBlock returns the first fenced block of lang after heading in the
// contract reference.
func docBlock(t *testing.T, heading, lang string) string {
	t.Helper()
	data, err := os.ReadFile(contractsDoc)
	must(t, err)
	_, after, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no heading %q", contractsDoc, heading)
	}
	_, block, ok := strings.Cut(after, "```"+lang+"\n")
	body, _, closed := strings.Cut(block, "\n```")
	if !ok || !closed {
		t.Fatalf("%s: no ```%s block under %q", contractsDoc, lang, heading)
	}
	return body + "\n"
}

// writeDocExample writes the complete example of the reference into dir,
// with the .avsc file it names when withAvsc is set: the Avro file under
// "Avro contract files" is that file. It returns the contract's path.
func writeDocExample(t *testing.T, dir string, withAvsc bool) string {
	t.Helper()
	files := map[string]string{"orders.acemq.yaml": docBlock(t, "## A complete example", "yaml")}
	if withAvsc {
		files["avro/order_shipped.avsc"] = docBlock(t, "## Avro contract files", "json")
	}
	writeFiles(t, dir, files)
	return filepath.Join(dir, "orders.acemq.yaml")
}

// Issue 23 item 5: the reference's complete example vets as it is written,
// with the .avsc file the reference shows beside it.
func TestContractsDocCompleteExampleVets(t *testing.T) {
	srcs, err := ReadSources([]string{writeDocExample(t, t.TempDir(), true)})
	must(t, err)
	if ds := Vet(srcs); len(ds) > 0 {
		t.Fatalf("the complete example of %s does not vet:\n%s", contractsDoc, stderrOf(ds))
	}
}

// The golden case contracts_example is the reference's example, verbatim, so
// its generated code is the example's.
func TestContractsDocExampleIsTheGoldenCase(t *testing.T) {
	dir := filepath.Join(goldenDir, "contracts_example")
	yaml, err := os.ReadFile(filepath.Join(dir, "orders.acemq.yaml"))
	must(t, err)
	avsc, err := os.ReadFile(filepath.Join(dir, "avro", "order_shipped.avsc"))
	must(t, err)
	_, body, _ := strings.Cut(string(yaml), "\n") // its first line says where it comes from
	if body != docBlock(t, "## A complete example", "yaml") {
		t.Errorf("%s/orders.acemq.yaml is not the complete example of %s", dir, contractsDoc)
	}
	if string(avsc) != docBlock(t, "## Avro contract files", "json") {
		t.Errorf("%s/avro/order_shipped.avsc is not the Avro example of %s", dir, contractsDoc)
	}
}

// Issue 23 item 5: a contract naming an .avsc file that does not exist is a
// diagnostic at the key that names it, among the run's other problems; it
// used to stop ReadSources with a bare "open ...: no such file".
func TestMissingSchemaFileIsADiagnosticAtTheKeyThatNamesIt(t *testing.T) {
	dir := t.TempDir()
	name := writeDocExample(t, dir, false)
	writeFiles(t, dir, map[string]string{"billing.acemq.yaml": "acemq: 1\ndomain: billing\nevents:\n  Billed: {fields: {a: Nope}}\n"})
	srcs, err := ReadSources([]string{name, filepath.Join(dir, "billing.acemq.yaml")})
	if err != nil {
		t.Fatalf("ReadSources fails instead of leaving the missing file to a diagnostic: %v", err)
	}
	text := docBlock(t, "## A complete example", "yaml")
	before, _, _ := strings.Cut(text, "avro/order_shipped.avsc")
	line := strings.Count(before, "\n") + 1
	col := len(before) - strings.LastIndex(before, "\n")
	want := []string{
		fmt.Sprintf("%s:%d:%d: schema \"avro/order_shipped.avsc\": no such file %s in this run", name, line, col, filepath.ToSlash(filepath.Join(dir, "avro", "order_shipped.avsc"))),
		`billing.acemq.yaml:4:24: unknown type "Nope"`,
	}
	got := stderrOf(Vet(srcs))
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("diagnostics lack %q:\n%s", w, got)
		}
	}
}

// A referenced file that exists but cannot be read is an error that names
// the key referring to it.
func TestUnreadableReferencedFileNamesTheKeyThatNamesIt(t *testing.T) {
	dir := t.TempDir()
	name := writeDocExample(t, dir, false)
	must(t, os.MkdirAll(filepath.Join(dir, "avro", "order_shipped.avsc"), 0o755)) // a directory: read fails
	_, err := ReadSources([]string{name})
	if err == nil || !strings.Contains(err.Error(), name+":") || !strings.Contains(err.Error(), "order_shipped.avsc") {
		t.Fatalf("want an error at the schema key of %s, got %v", name, err)
	}
}

// The same holds for a file imports: names.
func TestMissingImportFileIsADiagnosticAtTheKeyThatNamesIt(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"orders.acemq.yaml": "acemq: 1\ndomain: orders\nimports: {m: lib/money.acemq.yaml}\nevents:\n  Paid: {fields: {a: m.Money}}\n"})
	name := filepath.Join(dir, "orders.acemq.yaml")
	srcs, err := ReadSources([]string{name})
	if err != nil {
		t.Fatalf("ReadSources fails instead of leaving the missing file to a diagnostic: %v", err)
	}
	want := fmt.Sprintf("%s:3:14: import m: no such file %s in this run", name, filepath.ToSlash(filepath.Join(dir, "lib", "money.acemq.yaml")))
	if got := stderrOf(Vet(srcs)); !strings.Contains(got, want) {
		t.Errorf("diagnostics lack %q:\n%s", want, got)
	}
}
