package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestImportPathJoinsTheModulePathWithTheDirectoryInsideIt(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("// a comment\nmodule example.com/shop // trailing\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "internal", "gen")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := importPath(sub); got != "example.com/shop/internal/gen" {
		t.Errorf("subdirectory: got %q", got)
	}
	if got := importPath(root); got != "example.com/shop" {
		t.Errorf("module root: got %q", got)
	}
}

func TestImportPathOutsideAModuleIsEmpty(t *testing.T) {
	if got := importPath(string(filepath.Separator)); got != "" {
		t.Errorf("got %q", got)
	}
}
