package output

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
	if got := ImportPath(sub); got != "example.com/shop/internal/gen" {
		t.Errorf("subdirectory: got %q", got)
	}
	if got := ImportPath(root); got != "example.com/shop" {
		t.Errorf("module root: got %q", got)
	}
}

func TestImportPathOutsideAModuleIsEmpty(t *testing.T) {
	if got := ImportPath(string(filepath.Separator)); got != "" {
		t.Errorf("got %q", got)
	}
}

func TestImportPathOfADirectoryThatDoesNotExistYet(t *testing.T) {
	root := t.TempDir()
	writeText(t, filepath.Join(root, "go.mod"), "module example.com/shop\n\ngo 1.26\n")
	if got := ImportPath(filepath.Join(root, "gen", "messages")); got != "example.com/shop/gen/messages" {
		t.Errorf("got %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "gen")); err == nil {
		t.Errorf("resolving the import path created the directory")
	}
}

func TestThePackageNameIsTheOneTheDirectorysGoFilesDeclare(t *testing.T) {
	root := t.TempDir()
	writeText(t, filepath.Join(root, "go.mod"), "module example.com/shop\n\ngo 1.26\n")
	writeText(t, filepath.Join(root, "doc.go"), "// Package shopping is the shop.\npackage shopping\n")
	if path, name := GoPackage(root); path != "example.com/shop" || name != "shopping" {
		t.Errorf("in a module: got %q, %q", path, name)
	}
	outside := t.TempDir()
	writeText(t, filepath.Join(outside, "main.go"), "package main\n")
	if path, name := GoPackage(outside); path != "" || name != "main" {
		t.Errorf("outside a module: got %q, %q", path, name)
	}
}

func writeText(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
