package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateRefusesSymlinkInOutputPath links the package directory, then
// the generated file, to somewhere outside -o: generate refuses, naming the
// link, and writes nothing through it.
func TestGenerateRefusesSymlinkInOutputPath(t *testing.T) {
	t.Run("package directory", func(t *testing.T) {
		src, out, elsewhere := contracts(t), t.TempDir(), t.TempDir()
		must(t, os.Symlink(elsewhere, filepath.Join(out, "orders")))
		refusesLink(t, out, src, filepath.Join(out, "orders"))
		if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
			t.Fatalf("generate wrote through the link: %v", entries)
		}
	})
	t.Run("generated file", func(t *testing.T) {
		src, out, elsewhere := contracts(t), t.TempDir(), t.TempDir()
		target := filepath.Join(elsewhere, "victim.go")
		writeText(t, target, "keep me\n")
		must(t, os.MkdirAll(filepath.Join(out, "orders"), 0o755))
		must(t, os.Symlink(target, filepath.Join(out, "orders", "orders.acemq.go")))
		refusesLink(t, out, src, filepath.Join(out, "orders", "orders.acemq.go"))
		if data, _ := os.ReadFile(target); string(data) != "keep me\n" {
			t.Fatalf("generate wrote through the link: %q", data)
		}
	})
}

func refusesLink(t *testing.T, out, src, link string) {
	t.Helper()
	code, _, errOut := cli(t, "generate", "-o", out, src)
	if code != exitFindings || !strings.Contains(errOut, link+" is a symbolic link") {
		t.Fatalf("exit %d, stderr %q; want 1 naming the link %s", code, errOut, link)
	}
}

// TestGenerateWritesOutputDirectoryGivenAsALink keeps -o itself usable
// through a link (the user's choice, as /tmp is on some systems).
func TestGenerateWritesOutputDirectoryGivenAsALink(t *testing.T) {
	src, real := contracts(t), t.TempDir()
	out := filepath.Join(t.TempDir(), "out")
	must(t, os.Symlink(real, out))
	if code, _, errOut := cli(t, "generate", "-o", out, src); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(real, "orders", "orders.acemq.go")); err != nil {
		t.Fatal(err)
	}
}

// TestInitRefusesSymlinkInOutputPath: init writes only regular files inside
// -o too; a contracts/ directory linked elsewhere is refused by name.
func TestInitRefusesSymlinkInOutputPath(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	must(t, os.Symlink(elsewhere, filepath.Join(out, "contracts")))
	code, _, errOut := cli(t, "init", "-o", out, "orders")
	if code != exitFindings || !strings.Contains(errOut, filepath.Join(out, "contracts")+" is a symbolic link") {
		t.Fatalf("exit %d, stderr %q; want 1 naming the link", code, errOut)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("init wrote through the link: %v", entries)
	}
}
