package otel_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestOnlyThisPackageImportsOpenTelemetry loads every package of the module
// with its tests through go/packages and fails for any outside runtime/otel
// that imports go.opentelemetry.io (DESIGN.md: the dependency lives here
// only). bench/ is a module of its own, whose dependencies never reach users.
func TestOnlyThisPackageImportsOpenTelemetry(t *testing.T) {
	const own = "github.com/acemq/acemq-gen/runtime/otel"
	cfg := &packages.Config{Dir: "../..", Mode: packages.NeedName | packages.NeedImports, Tests: true}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go/packages saw only %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		if p.PkgPath == own || p.PkgPath == own+"_test" {
			continue
		}
		for path := range p.Imports {
			if strings.HasPrefix(path, "go.opentelemetry.io/") {
				t.Errorf("%s imports %s; OpenTelemetry belongs in runtime/otel only", p.ID, path)
			}
		}
	}
}
