package main

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"
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

// modulePath reads the module line of a go.mod file.
func modulePath(gomod string) (string, bool) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(strings.SplitN(rest, "//", 2)[0]), `"`), true
		}
	}
	return "", false
}
