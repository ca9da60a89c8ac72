package main

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// importPath returns the Go import path of dir: the module path of the
// nearest go.mod above it joined with dir's path inside the module, or ""
// when dir is not inside a module (generation then fails only if one
// generated package must import another).
func importPath(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for root := abs; ; root = filepath.Dir(root) {
		if mod, ok := modulePath(filepath.Join(root, "go.mod")); ok {
			rel, err := filepath.Rel(root, abs)
			if err != nil {
				return ""
			}
			return strings.TrimSuffix(path.Join(mod, filepath.ToSlash(rel)), "/.")
		}
		if filepath.Dir(root) == root {
			return ""
		}
	}
}

// modulePath reads the module path of a go.mod file.
func modulePath(gomod string) (string, bool) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", false
	}
	mod := modfile.ModulePath(data)
	return mod, mod != ""
}
