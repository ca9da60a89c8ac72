package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/generator"
)

// generatedSuffix ends the name of every file acemq-gen writes; a file with
// it in a generated package directory belongs to acemq-gen.
const generatedSuffix = ".acemq.go"

// write writes files under dir, leaving unchanged files untouched, and
// removes the generated files of those package directories that generate no
// longer writes.
func write(dir string, files []generator.File) error {
	for _, f := range files {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(f.Path)), f.Data); err != nil {
			return err
		}
	}
	stale, err := staleFiles(dir, files)
	for _, s := range stale {
		err = errors.Join(err, os.Remove(s))
	}
	if err != nil {
		return fmt.Errorf("acemq-gen: %w", err)
	}
	return nil
}

func writeFile(name string, data []byte) error {
	if old, err := os.ReadFile(name); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("acemq-gen: %w", err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		return fmt.Errorf("acemq-gen: %w", err)
	}
	return nil
}

// staleFiles lists the *.acemq.go files in the package directories of files
// that are not among them, and the AsyncAPI documents (*.asyncapi.yaml,
// *.asyncapi.json) in the directories of the documents among files that are
// not, sorted.
func staleFiles(dir string, files []generator.File) ([]string, error) {
	want, dirs := map[string]bool{}, map[string]func(string) bool{}
	for _, f := range files {
		want[f.Path] = true
		if generator.IsAsyncAPIFile(f.Path) {
			dirs[path.Dir(f.Path)+"\x00asyncapi"] = generator.IsAsyncAPIFile
			continue
		}
		dirs[path.Dir(f.Path)] = func(name string) bool { return strings.HasSuffix(name, generatedSuffix) }
	}
	var stale []string
	for key, ours := range dirs {
		d, _, _ := strings.Cut(key, "\x00")
		entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(d)))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() && ours(e.Name()) && !want[path.Join(d, e.Name())] {
				stale = append(stale, filepath.Join(dir, filepath.FromSlash(d), e.Name()))
			}
		}
	}
	slices.Sort(stale)
	return stale, nil
}
