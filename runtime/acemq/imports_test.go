package acemq_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// goListDeps returns every package the space-separated patterns depend on
// (themselves included) as "importpath standard" lines, loaded with
// go/packages from the module root; a package of the standard library is
// one of no module.
func goListDeps(t *testing.T, pattern string) []string {
	t.Helper()
	cfg := &packages.Config{Dir: "../..", Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedModule}
	roots, err := packages.Load(cfg, strings.Fields(pattern)...)
	if err != nil {
		t.Fatalf("go/packages %s: %v", pattern, err)
	}
	var lines []string
	packages.Visit(roots, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			t.Errorf("go/packages %s: %v", p.PkgPath, e)
		}
		lines = append(lines, p.PkgPath+map[bool]string{true: " true", false: " false"}[p.Module == nil])
	})
	return lines
}

// stdlibOnlyInternal are the module's own packages runtime/acemq may
// import: internal ones that themselves import only the standard library
// (and each other), so runtime/acemq still does.
var stdlibOnlyInternal = []string{
	"github.com/acemq/acemq-gen/runtime/acemq/internal/",
	"github.com/acemq/acemq-gen/runtime/acemq/driver",
	"github.com/acemq/acemq-gen/runtime/acemq/semconv",
	"github.com/acemq/acemq-gen/runtime/internal/amqpvalue",
	"github.com/acemq/acemq-gen/runtime/internal/batchfail",
	"github.com/acemq/acemq-gen/runtime/internal/decodelimit",
	"github.com/acemq/acemq-gen/runtime/internal/errtext",
	"github.com/acemq/acemq-gen/runtime/internal/headerval",
	"github.com/acemq/acemq-gen/runtime/internal/implbridge",
	"github.com/acemq/acemq-gen/runtime/internal/jsoncheck",
	"github.com/acemq/acemq-gen/runtime/internal/option",
	"github.com/acemq/acemq-gen/runtime/internal/redact",
	"github.com/acemq/acemq-gen/runtime/internal/safecall",
	"github.com/acemq/acemq-gen/runtime/internal/schedule",
}

func isStdlibOnlyInternal(path string) bool {
	for _, p := range stdlibOnlyInternal {
		if path == strings.TrimSuffix(p, "/") || (strings.HasSuffix(p, "/") && strings.HasPrefix(path, p)) {
			return true
		}
	}
	return false
}

func TestRuntimeAcemqImportsOnlyTheStandardLibrary(t *testing.T) {
	const self = "github.com/acemq/acemq-gen/runtime/acemq"
	lines := goListDeps(t, "./runtime/acemq")
	if len(lines) < 10 {
		t.Fatalf("go list saw only %v", lines)
	}
	for _, line := range lines {
		path, standard, _ := strings.Cut(line, " ")
		if path != self && standard != "true" && !isStdlibOnlyInternal(path) {
			t.Errorf("runtime/acemq depends on %s, which is not in the standard library", path)
		}
	}
}

func TestRuntimeAcemqInternalPackagesImportOnlyTheStandardLibrary(t *testing.T) {
	const self = "github.com/acemq/acemq-gen/runtime/acemq"
	lines := goListDeps(t, "./runtime/acemq/internal/... ./runtime/acemq/driver ./runtime/acemq/semconv ./runtime/internal/amqpvalue ./runtime/internal/decodelimit ./runtime/internal/implbridge")
	seen := 0
	for _, line := range lines {
		path, standard, _ := strings.Cut(line, " ")
		switch {
		case path == self:
			t.Errorf("an internal package of runtime/acemq imports runtime/acemq itself")
		case isStdlibOnlyInternal(path):
			seen++
		case standard != "true":
			t.Errorf("a standard-library-only internal package depends on %s", path)
		}
	}
	if seen < 2 {
		t.Fatalf("go list saw only %v", lines)
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
