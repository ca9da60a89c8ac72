// Package output is where acemq-gen writes: the generated files, safely
// (regular files inside the output directory only), the check of a file on
// disk against what would be written (CheckFile, with a diff), and the Go
// package the output directory is, as the go command sees it.
package output

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

// Write writes files under dir, leaving unchanged files untouched, and
// removes the generated files of those package directories that generate no
// longer writes. It writes only regular files inside dir: a symbolic link (or
// anything but a directory or a regular file) on the path of a file below dir
// is refused, naming it, before anything is written.
func Write(dir string, files []generator.File) error {
	for _, f := range files {
		if err := CheckPath(dir, f.Path); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := WriteFile(filepath.Join(dir, filepath.FromSlash(f.Path)), f.Data); err != nil {
			return err
		}
	}
	stale, err := StaleFiles(dir, files)
	for _, s := range stale {
		err = errors.Join(err, os.Remove(s))
	}
	if err != nil {
		return fmt.Errorf("acemq-gen: %w", err)
	}
	return nil
}

// errUnsafeOutputPath is wrapped by the error of a generate or asyncapi run
// that finds a symbolic link, or another file than a directory or a regular
// one, on the path of a file it writes below -o.
var errUnsafeOutputPath = errors.New("not a directory or a regular file")

// CheckPath refuses rel (slash-separated, below dir) when a part of it
// that exists is a symbolic link or not a directory (a regular file, for the
// last part). dir itself is the user's choice and may be a link.
func CheckPath(dir, rel string) error {
	parts := strings.Split(rel, "/")
	p := dir
	for i, part := range parts {
		if part == "" || part == "." || part == ".." {
			return fmt.Errorf("acemq-gen: %s: %w: the path leaves the output directory", rel, errUnsafeOutputPath)
		}
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("acemq-gen: %w", err)
		}
		if err := checkOutputEntry(p, fi, i == len(parts)-1); err != nil {
			return err
		}
	}
	return nil
}

func checkOutputEntry(p string, fi fs.FileInfo, last bool) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("acemq-gen: %s is a symbolic link: %w; acemq-gen writes only regular files inside -o and never through a link, so remove it", p, errUnsafeOutputPath)
	case last && !fi.Mode().IsRegular():
		return fmt.Errorf("acemq-gen: %s: %w (it is %s); remove it", p, errUnsafeOutputPath, fi.Mode().Type())
	case !last && !fi.IsDir():
		return fmt.Errorf("acemq-gen: %s: %w: a package directory is a file; remove it", p, errUnsafeOutputPath)
	}
	return nil
}

// WriteFile writes data to name through a temporary file in its directory
// renamed over it, so a link put at name after the check is replaced, never
// followed, and a reader never sees half a file.
func WriteFile(name string, data []byte) error {
	if old, err := os.ReadFile(name); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("acemq-gen: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".acemq-gen-*.tmp")
	if err != nil {
		return fmt.Errorf("acemq-gen: %w", err)
	}
	_, err = tmp.Write(data)
	err = errors.Join(err, tmp.Chmod(0o644), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("acemq-gen: %w", err)
	}
	return nil
}

// StaleFiles lists the *.acemq.go files in the package directories of files
// that are not among them, and the AsyncAPI documents (*.asyncapi.yaml,
// *.asyncapi.json) in the directories of the documents among files that are
// not, sorted.
func StaleFiles(dir string, files []generator.File) ([]string, error) {
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
