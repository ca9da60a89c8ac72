package site

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// owned are the top-level names a catalog writes in its directory; Write
// removes files under them that the site no longer holds, and Stale names
// them.
var owned = []string{"index.html", "assets", "domains", "messages", "types", "services"}

// marker is the file a catalog leaves in its directory: only where it is
// does Write remove what the site no longer holds, so a first catalog
// written over someone's own assets/ removes nothing.
var marker = File{Path: ".acemq-catalog", Data: []byte("Written by acemq-gen catalog, which removes the files under index.html, assets/, domains/,\nmessages/, types/ and services/ that the catalog no longer holds.\n")}

// Write writes files under dir and, in a directory a catalog was written
// to before, removes the catalog files it no longer holds.
func Write(dir string, files []File) error {
	var stale []string
	if _, err := os.Stat(filepath.Join(dir, marker.Path)); err == nil {
		if stale, err = Stale(dir, files); err != nil {
			return err
		}
	}
	for _, s := range stale {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(s))); err != nil {
			return fmt.Errorf("catalog: %w", err)
		}
	}
	for _, f := range files {
		name := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return fmt.Errorf("catalog: %w", err)
		}
		if err := os.WriteFile(name, f.Data, 0o644); err != nil {
			return fmt.Errorf("catalog: %w", err)
		}
	}
	return nil
}

// Stale lists, as slash paths in name order, the files under dir's catalog
// directories that files does not hold.
func Stale(dir string, files []File) ([]string, error) {
	var stale []string
	for _, top := range owned {
		root := filepath.Join(dir, top)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			if !slices.ContainsFunc(files, func(f File) bool { return f.Path == rel }) {
				stale = append(stale, rel)
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("catalog: %w", err)
		}
	}
	slices.Sort(stale)
	return stale, nil
}
