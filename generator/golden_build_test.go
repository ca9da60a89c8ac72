package generator

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoldenOutputCompilesAndVets copies every golden case's expected
// packages into a temporary module that replaces this module with the
// working tree, and runs go vet (which type-checks) on them against the
// runtime they bind to.
func TestGoldenOutputCompilesAndVets(t *testing.T) {
	root, err := filepath.Abs("..")
	must(t, err)
	mod := t.TempDir()
	n := copyGoldenPackages(t, mod)
	if n == 0 {
		t.Fatal("no golden case has generated packages")
	}
	writeModule(t, mod, root)
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet of %d generated packages failed: %v\n%s", n, err, out)
	}
}

// programMain is the main of the golden programs that define run: it exits
// 1 with run's error.
const programMain = `
func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`

// goldenModule makes a temporary module holding every golden case's
// expected packages (copyGoldenPackages, writeModule) and returns it.
func goldenModule(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	must(t, err)
	mod := t.TempDir()
	copyGoldenPackages(t, mod)
	writeModule(t, mod, root)
	return mod
}

// runGoldenProgram writes program as mod/dir/main.go and go-runs it in mod
// with GOFLAGS=-mod=mod, GOWORK=off and env, returning its combined output.
func runGoldenProgram(t *testing.T, mod, dir, program string, env ...string) ([]byte, error) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Join(mod, dir), 0o755))
	must(t, os.WriteFile(filepath.Join(mod, dir, "main.go"), []byte(program), 0o644))
	cmd := exec.Command("go", "run", "./"+dir)
	cmd.Dir = mod
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off"), env...)
	return cmd.CombinedOutput()
}

// copyGoldenPackages copies <case>/want/<pkg>/<file>.golden to
// mod/<case>/<pkg>/<file> and
// returns the number of files copied.
func copyGoldenPackages(t *testing.T, mod string) int {
	t.Helper()
	n := 0
	for _, name := range goldenCases(t) {
		want := filepath.Join(goldenDir, name, "want")
		_ = filepath.WalkDir(want, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(want, p)
			dst := filepath.Join(mod, name, strings.TrimSuffix(rel, goldenSuffix))
			data, err := os.ReadFile(p)
			must(t, err)
			must(t, os.MkdirAll(filepath.Dir(dst), 0o755))
			must(t, os.WriteFile(dst, data, 0o644))
			n++
			return nil
		})
	}
	return n
}

// writeModule writes the module of the golden packages: it requires this
// module (the working tree) and example.com/shared (testdata/shared, the
// module whose types the bound cases bind to), both replaced by directories.
func writeModule(t *testing.T, mod, root string) {
	t.Helper()
	gomod := strings.Join([]string{"module example.com/golden", "", "go 1.26", "",
		"require (", "\tgithub.com/acemq/acemq-gen v0.0.0", "\texample.com/shared v0.0.0", ")", "",
		"replace github.com/acemq/acemq-gen => " + root, "",
		"replace example.com/shared => " + filepath.Join(root, "testdata", "shared"), ""}, "\n")
	must(t, os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	must(t, err)
	must(t, os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644))
}
