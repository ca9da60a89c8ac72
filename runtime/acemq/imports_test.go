package acemq_test

import (
	"os/exec"
	"strings"
	"testing"
)

// goListDeps returns every package pattern depends on (itself included) as
// "importpath standard" lines, from the module root.
func goListDeps(t *testing.T, pattern string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", pattern)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

func TestRuntimeAcemqImportsOnlyTheStandardLibrary(t *testing.T) {
	const self = "github.com/acemq/acemq-gen/runtime/acemq"
	lines := goListDeps(t, "./runtime/acemq")
	if len(lines) < 10 {
		t.Fatalf("go list saw only %v", lines)
	}
	for _, line := range lines {
		path, standard, _ := strings.Cut(line, " ")
		if path != self && standard != "true" {
			t.Errorf("runtime/acemq depends on %s, which is not in the standard library", path)
		}
	}
}

func TestRuntimePackagesNeverImportGeneratorSidePackages(t *testing.T) {
	forbidden := []string{
		"github.com/acemq/acemq-gen/generator", "github.com/acemq/acemq-gen/cmd",
		"github.com/dave/jennifer", "golang.org/x/tools",
	}
	for _, line := range goListDeps(t, "./runtime/...") {
		path, _, _ := strings.Cut(line, " ")
		for _, f := range forbidden {
			if path == f || strings.HasPrefix(path, f+"/") {
				t.Errorf("a runtime package depends on %s", path)
			}
		}
	}
}
