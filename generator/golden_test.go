package generator

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected files of testdata/golden")

// goldenDir holds one directory per case: contracts, and either want/ (the
// generated files, each named with goldenSuffix) or want.stderr (the
// diagnostics, one per line).
const goldenDir = "../testdata/golden"

// goldenSuffix ends each expected file's name under want/ (orders.acemq.go
// is want/orders/orders.acemq.go.golden): the expected output is test data,
// not the module's source; the golden tests copy it into a module of its own
// (goldenModule) to compile, vet and run it.
const goldenSuffix = ".golden"

func goldenCases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	if len(out) < 40 {
		t.Fatalf("want at least 40 golden cases, found %d", len(out))
	}
	return out
}

// caseSources reads a case's contracts with paths relative to the case, so
// diagnostics in want.stderr do not depend on where the test runs.
func caseSources(t *testing.T, dir string) []Source {
	t.Helper()
	var srcs []Source
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !IsContract(d.Name()) {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		srcs = append(srcs, Source{Path: filepath.ToSlash(rel), Data: data})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return srcs
}

func TestGolden(t *testing.T) {
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(goldenDir, name)
			res := Generate(caseSources(t, dir), goldenOptions(name)...)
			if *update {
				updateCase(t, dir, res)
			}
			compareCase(t, dir, res)
		})
	}
}

// goldenImportPath is where the compile test puts a case's packages.
func goldenImportPath(name string) string { return "example.com/golden/" + name }

// goldenOptions are the options a case is generated with: its import path
// and, for a case that binds Go types (its directory is a module requiring
// testdata/shared), the module to load them from.
func goldenOptions(name string) []Option {
	opts := []Option{ImportPath(goldenImportPath(name))}
	dir := filepath.Join(goldenDir, name)
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		opts = append(opts, ModuleDir(dir))
	}
	return opts
}

func stderrOf(ds Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}

func updateCase(t *testing.T, dir string, res Result) {
	t.Helper()
	must(t, os.RemoveAll(filepath.Join(dir, "want")))
	must(t, os.RemoveAll(filepath.Join(dir, "want.stderr")))
	if len(res.Diagnostics) > 0 {
		must(t, os.WriteFile(filepath.Join(dir, "want.stderr"), []byte(stderrOf(res.Diagnostics)), 0o644))
		return
	}
	updateFiles(t, filepath.Join(dir, "want"), res.Files)
}

// updateFiles writes files under dir.
func updateFiles(t *testing.T, dir string, files []File) {
	t.Helper()
	must(t, os.RemoveAll(dir))
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path)+goldenSuffix)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, f.Data, 0o644))
	}
}

func compareCase(t *testing.T, dir string, res Result) {
	t.Helper()
	wantErr, err := os.ReadFile(filepath.Join(dir, "want.stderr"))
	if err == nil {
		if got := stderrOf(res.Diagnostics); got != string(wantErr) {
			t.Fatalf("diagnostics differ\n got:\n%s\nwant:\n%s", got, wantErr)
		}
		return
	}
	if len(res.Diagnostics) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", stderrOf(res.Diagnostics))
	}
	compareFiles(t, filepath.Join(dir, "want"), res.Files)
}

func compareFiles(t *testing.T, wantDir string, files []File) {
	t.Helper()
	want := map[string][]byte{}
	_ = filepath.WalkDir(wantDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(wantDir, p)
			want[strings.TrimSuffix(filepath.ToSlash(rel), goldenSuffix)], _ = os.ReadFile(p)
		}
		return nil
	})
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
		if !bytes.Equal(f.Data, want[f.Path]) {
			t.Errorf("%s differs from want/ (run go test ./generator -run TestGolden -update and review the diff)", f.Path)
		}
	}
	if len(got) != len(want) {
		t.Errorf("generated %v, want/ holds %d files", slices.Sorted(slices.Values(got)), len(want))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
