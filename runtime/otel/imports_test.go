package otel_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyThisPackageImportsOpenTelemetry walks the module's Go files and
// fails for any outside runtime/otel that imports go.opentelemetry.io
// (DESIGN.md: the dependency lives here only).
func TestOnlyThisPackageImportsOpenTelemetry(t *testing.T) {
	root, own := filepath.Join("..", ".."), filepath.Join("..", "..", "runtime", "otel")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == own || (path != root && d.IsDir() && outsideModule(path, d)) {
			return skipDir(d, err)
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			checkNoOpenTelemetry(t, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// outsideModule reports whether a directory is hidden or a module of its
// own (bench/), whose dependencies never reach users.
func outsideModule(path string, d fs.DirEntry) bool {
	_, err := os.Stat(filepath.Join(path, "go.mod"))
	return strings.HasPrefix(d.Name(), ".") || err == nil
}

// skipDir skips a directory, or returns the walk's error.
func skipDir(d fs.DirEntry, err error) error {
	if err == nil && d.IsDir() {
		return filepath.SkipDir
	}
	return err
}

// checkNoOpenTelemetry fails the test when the Go file at path imports
// OpenTelemetry.
func checkNoOpenTelemetry(t *testing.T, path string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		return // not ours to judge: a testdata file or one mid-edit
	}
	for _, imp := range f.Imports {
		if name, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(name, "go.opentelemetry.io/") {
			t.Errorf("%s imports %s; OpenTelemetry belongs in runtime/otel only", path, name)
		}
	}
}
