package main

import "testing"

func TestUnifiedDiffShowsChangedLinesWithContextAndLineNumbers(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	b := "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12\n13\n"
	want := "--- a\n+++ b\n" +
		"@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n" +
		"@@ -10,3 +10,4 @@\n 10\n 11\n 12\n+13\n"
	if got := unifiedDiff("a", "b", a, b); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestUnifiedDiffOfEqualTextsHasNoHunks(t *testing.T) {
	if got := unifiedDiff("a", "b", "x\n", "x\n"); got != "--- a\n+++ b\n" {
		t.Fatalf("got %q", got)
	}
}
