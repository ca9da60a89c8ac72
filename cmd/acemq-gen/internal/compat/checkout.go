package compat

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Checkout writes the tree of git revision rev of the repository holding
// the directory where into a new temporary directory, with git archive
// (the repository and its work tree are left alone). It returns that
// directory's counterpart of where, and a cleanup removing the copy.
func Checkout(ctx context.Context, where, rev string) (dir string, cleanup func(), err error) {
	if err := checkRevision(rev); err != nil {
		return "", nil, err
	}
	top, prefix, err := gitRoot(ctx, where)
	if err != nil {
		return "", nil, err
	}
	tmp, err := os.MkdirTemp("", "acemq-gen-graph-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	if err := archive(ctx, top, rev, tmp); err != nil {
		cleanup()
		return "", nil, err
	}
	return filepath.Join(tmp, filepath.FromSlash(prefix)), cleanup, nil
}

// archive extracts git archive's tar of rev into dst.
func archive(ctx context.Context, top, rev, dst string) error {
	cmd := exec.CommandContext(ctx, "git", "-C", top, "archive", "--format=tar", "--end-of-options", rev)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	xerr := untar(out, dst)
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git archive %s: %w: %s", rev, err, strings.TrimSpace(stderr.String()))
	}
	return xerr
}

// untar writes the directories and regular files of r into dst; nothing
// lands outside it.
func untar(r io.Reader, dst string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Join(dst, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(name, filepath.Clean(dst)+string(filepath.Separator)) {
			continue
		}
		if err := writeEntry(tr, h, name); err != nil {
			return err
		}
	}
}

func writeEntry(tr *tar.Reader, h *tar.Header, name string) error {
	switch h.Typeflag {
	case tar.TypeDir:
		return os.MkdirAll(name, 0o755)
	case tar.TypeReg:
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o755|0o600)
		if err != nil {
			return err
		}
		_, err = io.Copy(f, tr)
		return errors.Join(err, f.Close())
	}
	return nil
}
