package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAFreshModuleGeneratesWithGoGenerateAndExchangesEveryMessageKind copies
// testdata/freshmodule into a new module outside the repository (replacing
// acemq-gen with this working tree), runs go generate there, and runs the
// program: events (JSON with a required header, a union and a type library's
// type; Avro through the registry), commands (encrypted JSON, encrypted Avro)
// and an encrypted RPC with a declared error, all on memory://.
func TestAFreshModuleGeneratesWithGoGenerateAndExchangesEveryMessageKind(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	copyTree(t, "testdata/freshmodule", mod)
	writeFreshGoMod(t, mod, root)
	goCmd(t, mod, "generate", "./...")
	for _, f := range []string{"shop/shop.acemq.go", "money/money.acemq.go"} {
		if _, err := os.Stat(filepath.Join(mod, f)); err != nil {
			t.Fatalf("go generate did not write %s: %v", f, err)
		}
	}
	if out := goCmd(t, mod, "run", "."); !strings.Contains(out, "every message kind went through") {
		t.Fatalf("the program said: %s", out)
	}
}

// copyTree copies src into dst, dropping the .txt that keeps Go files out of
// this package.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, strings.TrimSuffix(rel, ".txt"))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeFreshGoMod(t *testing.T, mod, root string) {
	t.Helper()
	gomod := "module example.com/fresh\n\ngo 1.26\n\nrequire github.com/acemq/acemq-gen v0.0.0\n\nreplace github.com/acemq/acemq-gen => " + root + "\n"
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
}

// goCmd runs the go command in dir (modules come from the cache, or the
// proxy when the cache lacks them) and returns its output.
func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
