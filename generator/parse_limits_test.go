package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestDeepContractIsRefusedBeforeParsing feeds contracts nested 200,000
// deep (flow lists, flow mappings, block "- " entries, an .avsc) that took
// the YAML parser over 20 GB: each is one diagnostic at its line and column,
// within bounded memory.
func TestDeepContractIsRefusedBeforeParsing(t *testing.T) {
	const n = 200000
	cases := []Source{
		{Path: "flow.acemq.yaml", Data: []byte("acemq: 1\ndomain: a\ndoc: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n")},
		{Path: "maps.acemq.yaml", Data: []byte("acemq: 1\ndomain: a\ndoc: " + strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n) + "\n")},
		{Path: "dashes.acemq.yaml", Data: []byte("acemq: 1\ndomain: a\ndoc:\n" + strings.Repeat("- ", n) + "x\n")},
		{Path: "deep.avsc", Data: []byte(`{"type": ` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}")},
	}
	for _, src := range cases {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ds := Vet([]Source{src})
		runtime.ReadMemStats(&after)
		if len(ds) != 1 || !strings.Contains(ds[0].Message, "nest deeper than 64 levels") || ds[0].Pos.Line < 1 {
			t.Errorf("%s: diagnostics %v", src.Path, ds)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 512<<20 {
			t.Errorf("%s: %d MiB allocated", src.Path, grew>>20)
		}
	}
}

// TestNestingJustUnderTheLimitParses keeps contracts at 60 levels working.
func TestNestingJustUnderTheLimitParses(t *testing.T) {
	src := Source{Path: "a.acemq.yaml", Data: []byte("acemq: 1\ndomain: a\ndoc: " + strings.Repeat("[", 60) + strings.Repeat("]", 60) + "\n")}
	if ds := Vet([]Source{src}); len(ds) != 1 || !strings.Contains(ds[0].Message, `"doc" must be a string`) {
		t.Fatalf("diagnostics %v", ds)
	}
}

// TestHugeContractFileIsRefusedWithoutReadingItAll: a contract file over
// MaxContractBytes is read only to one byte past it and refused.
func TestHugeContractFileIsRefusedWithoutReadingItAll(t *testing.T) {
	name := filepath.Join(t.TempDir(), "big.acemq.yaml")
	must(t, os.WriteFile(name, []byte("acemq: 1\ndomain: a\ndoc: "+strings.Repeat("x", MaxContractBytes)+"\n"), 0o644))
	srcs, err := ReadSources([]string{name})
	if err != nil || len(srcs) != 1 || len(srcs[0].Data) != MaxContractBytes+1 {
		t.Fatalf("read %d sources, err %v", len(srcs), err)
	}
	if ds := Vet(srcs); len(ds) != 1 || !strings.Contains(ds[0].Message, "at most 2097152") {
		t.Fatalf("diagnostics %v", ds)
	}
}

// TestWideBlockMappingIsRefusedBeforeParsing: a block mapping of 60,000 keys
// (the parser's time grows with their square: 8 s) is one diagnostic; one
// of 10,000 parses, and a flow list of 100,000 symbols is not limited.
func TestWideBlockMappingIsRefusedBeforeParsing(t *testing.T) {
	wide := func(n int) Source {
		var b strings.Builder
		b.WriteString("acemq: 1\ndomain: a\ndoc:\n")
		for i := range n {
			fmt.Fprintf(&b, "  k%d: 1\n", i)
		}
		return Source{Path: "a.acemq.yaml", Data: []byte(b.String())}
	}
	if ds := Vet([]Source{wide(60000)}); len(ds) != 1 || !strings.Contains(ds[0].Message, "more than 10000 keys") || ds[0].Pos.Line != 10004 {
		t.Errorf("60,000 keys: %v", ds)
	}
	if ds := Vet([]Source{wide(10000)}); len(ds) != 1 || !strings.Contains(ds[0].Message, `"doc" must be a string`) {
		t.Errorf("10,000 keys: %v", ds)
	}
	if ds := Vet(enumContract(100000)); len(ds) != 0 {
		t.Errorf("100,000 symbols: %v", ds)
	}
}
