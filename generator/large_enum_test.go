package generator

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hamba/avro/v2"
)

// enumContract is a contract whose enum has n symbols, used by an event.
func enumContract(n int) []Source {
	var b strings.Builder
	b.WriteString("acemq: 1\ndomain: big\ntypes:\n  Big:\n    enum: [")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "s%d", i)
	}
	b.WriteString("]\nevents:\n  E:\n    fields: {b: Big}\n")
	return []Source{{Path: "big.acemq.yaml", Data: []byte(b.String())}}
}

// generateTime generates src and returns how long it took, the shortest of runs.
func generateTime(t *testing.T, srcs []Source, runs int) time.Duration {
	t.Helper()
	best := time.Duration(1<<63 - 1)
	for range runs {
		start := time.Now()
		res := Generate(srcs)
		best = min(best, time.Since(start))
		if len(res.Files) != 1 {
			t.Fatalf("want one file, got diagnostics:\n%s", stderrOf(res.Diagnostics))
		}
	}
	return best
}

// TestGenerateLargeEnumIsNotQuadratic generates an enum of 2,000 and one of
// 20,000 symbols: ten times the symbols may take about ten times as long,
// never the hundred a quadratic step gives (20,000 took 44 s when hamba/avro
// wrote the canonical schema and the layout inserted line breaks by
// concatenation). The bounds are generous; the machine may be busy.
func TestGenerateLargeEnumIsNotQuadratic(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 20,000 symbols")
	}
	small := generateTime(t, enumContract(2000), 3)
	large := generateTime(t, enumContract(20000), 2)
	if large > 30*time.Second || large > 40*small {
		t.Fatalf("20,000 symbols took %v, 2,000 took %v: worse than linear", large, small)
	}
	t.Logf("2,000 symbols: %v; 20,000: %v", small, large)
}

// BenchmarkGenerateLargeEnum generates an enum of 20,000 symbols.
func BenchmarkGenerateLargeEnum(b *testing.B) {
	srcs := enumContract(20000)
	for b.Loop() {
		if res := Generate(srcs); len(res.Files) != 1 {
			b.Fatal(res.Diagnostics)
		}
	}
}

// TestCanonicalFormIsHambaString checks the linear canonical writer against
// hamba/avro's String on every record of every golden case.
func TestCanonicalFormIsHambaString(t *testing.T) {
	n := 0
	for _, name := range goldenCases(t) {
		m, ds := build(caseSources(t, filepath.Join(goldenDir, name)))
		if ds.HasErrors() {
			continue
		}
		for _, dom := range m.Domains {
			for _, rec := range allRecords(dom) {
				s, err := avro.ParseWithCache(rec.Avro.Full, "", &avro.SchemaCache{})
				if err != nil {
					t.Fatalf("%s: %s: %v", name, rec.Name, err)
				}
				if got, want := canonicalForm(s), s.String(); got != want {
					t.Errorf("%s: %s:\n got %s\nwant %s", name, rec.Name, got, want)
				}
				n++
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d records checked", n)
	}
}
