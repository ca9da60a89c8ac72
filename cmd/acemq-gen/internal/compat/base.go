package compat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/acemq/acemq-gen/generator"
)

// gitPrefix marks a BASE that is a git revision.
const gitPrefix = "git:"

// ReadBase reads the baseline contracts: from a git revision (git:REV) or a
// directory.
func ReadBase(ctx context.Context, against string, paths []string) ([]generator.Source, error) {
	if rev, ok := strings.CutPrefix(against, gitPrefix); ok {
		return readGitBase(ctx, rev, paths)
	}
	return readDirBase(against, paths)
}

// readDirBase reads a BASE directory. When every PATH is relative and exists
// inside it (DIR/PATH, as in a checkout of the old tree), those are read;
// otherwise the directory holds the baseline contracts and is searched whole.
func readDirBase(dir string, paths []string) ([]generator.Source, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory (for a git revision write git:REV)", dir)
	}
	if mirrored, ok := mirror(dir, paths); ok {
		return generator.ReadSources(mirrored)
	}
	return generator.ReadSources([]string{dir})
}

// mirror maps each relative PATH into dir; ok is false unless all exist there.
func mirror(dir string, paths []string) ([]string, bool) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if filepath.IsAbs(p) {
			return nil, false
		}
		m := filepath.Join(dir, p)
		if _, err := os.Stat(m); err != nil {
			return nil, false
		}
		out = append(out, m)
	}
	return out, true
}

// readGitBase reads, at revision rev, the contracts under each PATH and the
// files they import, with git show: nothing is checked out. A PATH absent at
// rev contributes nothing (its contracts are new). Sources are named
// git:REV/path, the path relative to the repository root.
func readGitBase(ctx context.Context, rev string, paths []string) ([]generator.Source, error) {
	if err := checkRevision(rev); err != nil {
		return nil, err
	}
	var out []generator.Source
	seen := map[string]bool{}
	for _, p := range paths {
		srcs, err := gitSources(ctx, rev, p)
		if err != nil {
			return nil, err
		}
		for _, s := range srcs {
			if !seen[s.Path] {
				seen[s.Path] = true
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// gitSources reads the contracts under one PATH at rev.
func gitSources(ctx context.Context, rev, p string) ([]generator.Source, error) {
	top, rel, dir, err := gitLocate(ctx, p)
	if err != nil {
		return nil, err
	}
	names, err := gitList(ctx, top, rev, rel, dir)
	if err != nil {
		return nil, err
	}
	return gitReadAll(ctx, top, rev, names)
}

// gitReadAll reads names at rev and, breadth first, the files they
// reference, as generator.ReadSources does on disk.
func gitReadAll(ctx context.Context, top, rev string, names []string) ([]generator.Source, error) {
	seen := map[string]bool{}
	var out []generator.Source
	given := len(names)
	for i := 0; i < len(names); i++ {
		n := path.Clean(filepath.ToSlash(names[i]))
		if seen[n] {
			continue
		}
		seen[n] = true
		if i >= given && !gitHas(ctx, top, rev+":"+n) {
			continue // a reference to a file missing at rev: Generate reports it at its key
		}
		data, err := gitShow(ctx, top, rev+":"+n)
		if err != nil {
			return nil, err
		}
		out = append(out, generator.Source{Path: gitPrefix + rev + "/" + n, Data: data})
		names = append(names, generator.References(generator.Source{Path: n, Data: data})...)
	}
	return out, nil
}

// gitHas tells whether REV:path names an object, as generator.ReadSources
// checks a referenced file on disk before reading it.
func gitHas(ctx context.Context, dir, spec string) bool {
	return exec.CommandContext(ctx, "git", "-C", dir, "cat-file", "-e", "--end-of-options", spec).Run() == nil
}

// gitLocate finds the repository root holding p and p's slash-separated
// path relative to it; dir tells whether p is a directory.
func gitLocate(ctx context.Context, p string) (top, rel string, dir bool, err error) {
	info, err := os.Stat(p)
	if err != nil {
		return "", "", false, err
	}
	where := p
	if !info.IsDir() {
		where = filepath.Dir(p)
	}
	top, rel, err = gitRoot(ctx, where)
	if !info.IsDir() {
		rel = path.Join(rel, filepath.Base(p))
	}
	return top, rel, info.IsDir(), err
}

// gitRoot returns the top of the repository holding the directory where, and
// where's path relative to it ("" at the top).
func gitRoot(ctx context.Context, where string) (top, prefix string, err error) {
	out, err := git(ctx, where, "rev-parse", "--show-toplevel", "--show-prefix")
	if err != nil {
		return "", "", err
	}
	lines := strings.SplitN(string(out), "\n", 3)
	if len(lines) < 2 {
		return "", "", fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	return lines[0], strings.TrimSuffix(lines[1], "/"), nil
}

// gitList lists the files to read at rev: rel itself when it is a file, the
// contracts under it (outside hidden directories) when it is a directory.
func gitList(ctx context.Context, top, rev, rel string, dir bool) ([]string, error) {
	args := []string{"ls-tree", "-r", "-z", "--name-only", "--full-tree", "--end-of-options", rev}
	if rel != "" {
		args = append(args, "--", rel)
	}
	out, err := git(ctx, top, args...)
	if err != nil {
		return nil, err
	}
	var names []string
	for n := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if n != "" && (!dir || isBaseContract(rel, n)) {
			names = append(names, n)
		}
	}
	return names, nil
}

// isBaseContract reports whether n, found under the directory rel, is a
// contract a directory search would read.
func isBaseContract(rel, n string) bool {
	inner := strings.TrimPrefix(strings.TrimPrefix(n, rel), "/")
	for _, part := range strings.Split(path.Dir(inner), "/") {
		if strings.HasPrefix(part, ".") && part != "." {
			return false
		}
	}
	return generator.IsContract(path.Base(n))
}

// errNotRevision is wrapped by the error for a user's value that cannot be
// a git revision.
var errNotRevision = errors.New("is not a git revision")

// checkRevision is the rule a user's revision (git:REV, --since) passes
// before it reaches git's command line: it is not empty, does not start with
// '-' (git would read it as an option, such as --output=FILE) and holds no
// control character or NUL. Every git command acemq-gen runs also puts
// --end-of-options before a revision and -- before paths, so that nothing a
// user writes is ever an option.
func checkRevision(rev string) error {
	bad := rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsFunc(rev, func(r rune) bool {
		return unicode.IsControl(r) || r == utf8.RuneError
	})
	if bad {
		return fmt.Errorf("%q %w (one must not be empty, start with '-' or hold control characters)", rev, errNotRevision)
	}
	return nil
}

// git runs git in dir and returns its standard output.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// gitShow reads one file of a revision (REV:path) with git show, reading at
// most one byte past generator.MaxContractBytes (the parse then reports the
// file too big) and stopping git there: a huge blob in the history never
// fills the memory.
func gitShow(ctx context.Context, dir, spec string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "show", "--end-of-options", spec)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	data, readErr := io.ReadAll(io.LimitReader(out, generator.MaxContractBytes+1))
	if len(data) > generator.MaxContractBytes {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return data, nil
	}
	if err := errors.Join(readErr, cmd.Wait()); err != nil {
		return nil, fmt.Errorf("git show %s: %w: %s", spec, err, strings.TrimSpace(stderr.String()))
	}
	return data, nil
}
