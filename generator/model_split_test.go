package generator

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// joinedSplitCase is the split_domain golden case's two contracts written
// as one file, by hand: one-file.yaml.txt, read as the first contract.
func joinedSplitCase(t *testing.T) []Source {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(goldenDir, "split_domain", "one-file.yaml.txt"))
	must(t, err)
	return []Source{{Path: "orders.acemq.yaml", Data: data}}
}

// Issue 23 item 9: one domain split over two files generates exactly what
// the same contract in one file does: the Go package and the AsyncAPI
// document.
func TestSplitDomainGeneratesWhatOneFileDoes(t *testing.T) {
	split := caseSources(t, filepath.Join(goldenDir, "split_domain"))
	one := joinedSplitCase(t)
	opts := goldenOptions("split_domain")
	compareResults(t, "Generate", Generate(split, opts...), Generate(one, opts...))
	compareResults(t, "AsyncAPI", AsyncAPI(split), AsyncAPI(one))
}

func compareResults(t *testing.T, what string, split, one Result) {
	t.Helper()
	if len(split.Diagnostics)+len(one.Diagnostics) > 0 || len(one.Files) == 0 {
		t.Fatalf("%s: split:\n%sone file:\n%s", what, stderrOf(split.Diagnostics), stderrOf(one.Diagnostics))
	}
	if len(split.Files) != len(one.Files) {
		t.Fatalf("%s: %d files from the split domain, %d from one file", what, len(split.Files), len(one.Files))
	}
	for i, f := range split.Files {
		if f.Path != one.Files[i].Path || !bytes.Equal(f.Data, one.Files[i].Data) {
			t.Errorf("%s: %s of the split domain differs from %s of one file", what, f.Path, one.Files[i].Path)
		}
	}
}

// Issue 23 item 9: two files naming one domain used to be refused with
// "domain orders is already declared".
func TestOneDomainSplitOverTwoFilesIsAccepted(t *testing.T) {
	ds := Vet([]Source{
		{Path: "a.acemq.yaml", Data: []byte("acemq: 1\ndomain: orders\ntypes:\n  Money: {fields: {cents: long}}\nevents:\n  OrderPlaced: {fields: {total: Money}}\n")},
		{Path: "b.acemq.yaml", Data: []byte("acemq: 1\ndomain: orders\nevents:\n  OrderPaid: {fields: {total: Money}}\n")},
	})
	if len(ds) > 0 {
		t.Fatalf("diagnostics:\n%s", stderrOf(ds))
	}
}

// Across the files of a split domain, a name declared twice is one
// diagnostic at the later file pointing at the first, and a setting the
// files disagree on is reported at the later file.
func TestSplitDomainReportsCollisionsAndDisagreementsAcrossItsFiles(t *testing.T) {
	got := stderrOf(Vet(caseSources(t, filepath.Join(goldenDir, "diag_split_domain"))))
	for _, want := range []string{
		"b.acemq.yaml:12:3: message OrderPlaced is already declared at a.acemq.yaml:12:3",
		"b.acemq.yaml:7:3: type Money is already declared at a.acemq.yaml:9:3",
		`b.acemq.yaml:3:8: domain orders: codec is "avro" here but "json" at a.acemq.yaml:6:8`,
		`b.acemq.yaml:18:3: command Refund uses queue "orders.cancel-order", already used by command CancelOrder at a.acemq.yaml:15:3`,
		"type CancelOrderQueue (at b.acemq.yaml:9:3) and the CancelOrderQueue of command CancelOrder",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, got)
		}
	}
}

// docs/upgrading.md: splitting a contract in two changes nothing compat
// checks, in either direction.
func TestCompatSeesNoChangeWhenADomainIsSplit(t *testing.T) {
	split := caseSources(t, filepath.Join(goldenDir, "split_domain"))
	one := joinedSplitCase(t)
	for name, ds := range map[string]Diagnostics{"split": Compat(one, split), "joined": Compat(split, one)} {
		if len(ds) > 0 {
			t.Errorf("%s: compat reports:\n%s", name, stderrOf(ds))
		}
	}
}
