package vet_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/acemq/acemq-gen/generator/vet"
)

// testdata is a module requiring this one through a replace directive, so
// the cases type-check against the real runtime.
func run(t *testing.T, a *analysis.Analyzer, pattern string) {
	t.Helper()
	analysistest.Run(t, analysistest.TestData(), a, pattern)
}

func TestReservedHeaderReportsConstantNamesInTheEngineNamespace(t *testing.T) {
	run(t, vet.ReservedHeader, "./reservedheader")
}

func TestWireTagsReportsUntaggedPayloadFieldsButNotGeneratedTypes(t *testing.T) {
	run(t, vet.WireTags, "./wiretags/...")
}

func TestPayloadTypeReportsAnotherTypeOrAZeroMessage(t *testing.T) {
	run(t, vet.PayloadType, "./payloadtype/...")
}

func TestInterceptorPanicReportsDirectPanicsInInterceptorsAndCodecs(t *testing.T) {
	run(t, vet.InterceptorPanic, "./interceptorpanic")
}

func TestUnsettledReportsAHandlerReturningTheZeroAck(t *testing.T) {
	run(t, vet.Unsettled, "./unsettled")
}

func TestAnIgnoreDirectiveNamingTheAnalyzerOnTheLineOrAboveSilencesIt(t *testing.T) {
	run(t, vet.ReservedHeader, "./ignore")
}

func TestAnalyzersAreNamedDocumentedAndValid(t *testing.T) {
	all := vet.Analyzers()
	if len(all) != 5 {
		t.Fatalf("Analyzers() = %d analyzers, want 5", len(all))
	}
	if err := analysis.Validate(all); err != nil {
		t.Fatal(err)
	}
	for _, a := range all {
		if a.Doc == "" || a.Name == "" {
			t.Errorf("analyzer %q has no doc", a.Name)
		}
	}
}
