package generator

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// contractSuffixes are the file names a directory search picks up.
var contractSuffixes = []string{".acemq.yaml", ".acemq.yml", ".avsc"}

// IsContract reports whether a file name is a contract a directory search reads.
func IsContract(name string) bool {
	return slices.ContainsFunc(contractSuffixes, func(s string) bool { return strings.HasSuffix(name, s) })
}

// ReadSources reads the contracts named by paths: a file is read as given, a
// directory is searched recursively (skipping hidden directories) for
// *.acemq.yaml, *.acemq.yml and *.avsc, and the files a YAML contract names
// in imports: and schema: are read too. A file reached twice is read once.
// A file a contract names that does not exist is left out, for Generate and
// Vet to report at the key that names it; one that cannot be read is an
// error naming that key. Source paths are the given paths joined with what
// the search found.
func ReadSources(paths []string) ([]Source, error) {
	var names []string
	for _, p := range paths {
		found, err := findContracts(p)
		if err != nil {
			return nil, err
		}
		names = append(names, found...)
	}
	return readAll(names)
}

func findContracts(p string) ([]string, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("acemq-gen: %w", err)
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	out, err := walkContracts(p)
	if err == nil && len(out) == 0 {
		err = fmt.Errorf("no contracts (*.acemq.yaml, *.acemq.yml, *.avsc) under %s", p)
	}
	if err != nil {
		return nil, fmt.Errorf("acemq-gen: %w", err)
	}
	return out, nil
}

// walkContracts lists the contracts under dir, skipping hidden directories.
func walkContracts(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != dir && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir
		case !d.IsDir() && IsContract(d.Name()):
			out = append(out, path)
		}
		return nil
	})
	return out, err
}

// readAll reads names and, breadth first, the files they reference. A
// referenced file that does not exist is left out: Generate reports it at
// the key that names it, with every other problem of the run.
func readAll(names []string) ([]Source, error) {
	queue := make([]reference, len(names))
	for i, n := range names {
		queue[i] = reference{path: n}
	}
	seen := map[string]bool{}
	var out []Source
	for len(queue) > 0 {
		ref := queue[0]
		queue = queue[1:]
		if seen[filepath.Clean(ref.path)] {
			continue
		}
		seen[filepath.Clean(ref.path)] = true
		data, found, err := readReference(ref)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		out = append(out, Source{Path: ref.path, Data: data})
		queue = append(queue, references(ref.path, data)...)
	}
	return out, nil
}

// readReference reads the file ref names; found is false, with no error,
// when a contract names a file that does not exist. Another failure to read
// a named file is an error at the key that names it.
func readReference(ref reference) (data []byte, found bool, err error) {
	data, err = readContractFile(ref.path)
	switch {
	case err == nil:
		return data, true, nil
	case ref.at.File == "":
		return nil, false, fmt.Errorf("acemq-gen: %w", err)
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("acemq-gen: %s: %w", ref.at, err)
}

// readContractFile reads a contract file, stopping one byte past
// MaxContractBytes (the parse then reports the file too big): a huge file,
// or a device named like a contract, never fills the memory.
func readContractFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxContractBytes+1))
}
