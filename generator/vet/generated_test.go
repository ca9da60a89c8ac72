package vet

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestGeneratedCodeIsCleanWithoutTheGeneratedFileSkip runs every analyzer
// over every golden case's generated packages and over the examples with
// generated files analysed like hand-written ones: acemq-gen's output is
// clean by construction, not only because the analyzers skip it.
func TestGeneratedCodeIsCleanWithoutTheGeneratedFileSkip(t *testing.T) {
	if testing.Short() {
		t.Skip("loads every golden package and the examples from source")
	}
	skipGenerated = false
	t.Cleanup(func() { skipGenerated = true })
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	mod := goldenModule(t, root)
	n := analyze(t, mod, "./...") + analyze(t, root, "./examples/...")
	t.Logf("analysed %d packages with generated files included", n)
	if n < 10 {
		t.Fatalf("analysed only %d packages", n)
	}
}

// analyze loads pattern in dir, runs the analyzers and fails the test on any
// diagnostic; it returns the number of packages analysed.
func analyze(t *testing.T, dir, pattern string) int {
	t.Helper()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Tests: true,
		Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("%s in %s does not load", pattern, dir)
	}
	g, err := checker.Analyze(Analyzers(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for act := range g.All() {
		for _, d := range act.Diagnostics {
			t.Errorf("%s: %s: %s", act.Package.Fset.Position(d.Pos), act.Analyzer.Name, d.Message)
		}
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
	}
	return len(pkgs)
}

// goldenModule copies testdata/golden/<case>/want/**/*.go.golden (as .go) into a temporary
// module that replaces this one with the working tree.
func goldenModule(t *testing.T, root string) string {
	t.Helper()
	mod := t.TempDir()
	golden := filepath.Join(root, "testdata", "golden")
	err := filepath.WalkDir(golden, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(golden, p)
		parts := strings.SplitN(filepath.ToSlash(rel), "/", 3)
		if err != nil || d.IsDir() || len(parts) < 3 || parts[1] != "want" || !strings.HasSuffix(p, ".go.golden") {
			return err
		}
		return copyFile(p, filepath.Join(mod, parts[0], strings.TrimSuffix(parts[2], ".golden")))
	})
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/golden\n\ngo 1.26\n\nrequire github.com/acemq/acemq-gen v0.0.0\n\nreplace github.com/acemq/acemq-gen => " + root + "\n" +
		// golden case bound binds types of the second module testdata/shared
		"\nrequire example.com/shared v0.0.0\n\nreplace example.com/shared => " + filepath.Join(root, "testdata", "shared") + "\n"
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := copyFile(filepath.Join(root, "go.sum"), filepath.Join(mod, "go.sum")); err != nil {
		t.Fatal(err)
	}
	return mod
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
