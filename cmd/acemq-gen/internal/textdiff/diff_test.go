package textdiff

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func TestUnifiedDiffShowsChangedLinesWithContextAndLineNumbers(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	b := "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12\n13\n"
	want := "--- a\n+++ b\n" +
		"@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n" +
		"@@ -10,3 +10,4 @@\n 10\n 11\n 12\n+13\n"
	if got := Unified("a", "b", a, b); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestUnifiedDiffOfEqualTextsHasNoHunks(t *testing.T) {
	if got := Unified("a", "b", "x\n", "x\n"); got != "--- a\n+++ b\n" {
		t.Fatalf("got %q", got)
	}
}

// TestCheckDiffOfLargeChangeIsBounded diffs two files of 40,000 lines that
// differ near both ends (a regenerated large enum): the diff is correct and
// takes memory linear in the files, not the 3 GB a full table of the changed
// middle took.
func TestCheckDiffOfLargeChangeIsBounded(t *testing.T) {
	var a, b strings.Builder
	for i := range 40000 {
		fmt.Fprintf(&a, "line %d\n", i)
		if i == 10 || i == 39990 {
			fmt.Fprintf(&b, "line %d edited\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d := Unified("a", "b", a.String(), b.String())
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<20 {
		t.Fatalf("the diff allocated %d MiB", grew>>20)
	}
	for _, want := range []string{"-line 10\n", "+line 10 edited\n", "-line 39990\n", "+line 39990 edited\n"} {
		if !strings.Contains(d, want) {
			t.Fatalf("diff lacks %q", want)
		}
	}
}
