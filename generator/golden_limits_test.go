package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedLinesStayWithinTheirWidths checks every golden's generated
// files: no comment line is over 100 columns and no code line over 120,
// except one holding a schema string literal (a tab counts 4 columns).
func TestGeneratedLinesStayWithinTheirWidths(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*", "want", "*", "*.go"+goldenSuffix))
	if len(files) < 30 {
		t.Fatalf("found %d generated golden files, want at least 30", len(files))
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(data), "\n") {
			if msg := widthProblem(l); msg != "" {
				t.Errorf("%s:%d: %s", path, i+1, msg)
			}
		}
	}
}

// widthProblem says what is wrong with a generated line's width, or "".
func widthProblem(l string) string {
	w := lineWidth(l)
	switch {
	case strings.HasPrefix(strings.TrimSpace(l), "//") && w > 100:
		return "a comment line over 100 columns"
	case w > 120 && !isSchemaLiteral(l):
		return "a code line over 120 columns"
	}
	return ""
}

// isSchemaLiteral reports whether l returns a schema as a string literal.
func isSchemaLiteral(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "return `{") || strings.HasPrefix(t, `return "{`) ||
		strings.HasPrefix(t, "return `[") || strings.HasPrefix(t, `return "[`) ||
		strings.HasPrefix(t, "`{") && strings.HasSuffix(t, "`,") // a bound type's schema, written in place
}

func TestWidthProblemFindsLongCommentsAndCodeButNotSchemas(t *testing.T) {
	if widthProblem("// "+strings.Repeat("x", 98)) == "" {
		t.Error("a 101-column comment passed")
	}
	if widthProblem("\tx := "+strings.Repeat("y", 112)) == "" {
		t.Error("a 121-column code line passed")
	}
	if widthProblem("\treturn `{"+strings.Repeat("z", 200)+"}`") != "" {
		t.Error("a schema literal was refused")
	}
}

func TestBreakLongListsPutsEachArgumentOnALineOfItsOwn(t *testing.T) {
	src := "package p\n\nfunc f(a ...int) int { return 0 }\n\nvar x = f(" +
		strings.Repeat("111111111, ", 10) + "2)\n"
	out, err := breakLongLists([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := "var x = f(\n\t111111111,\n"
	if !strings.Contains(string(out), want) || strings.Contains(string(out), "111111111, 111111111") {
		t.Fatalf("got\n%s", out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if lineWidth(l) > maxListLine {
			t.Errorf("line over %d columns: %s", maxListLine, l)
		}
	}
}

func TestWrapCommentWrapsLongLinesAndKeepsPreformattedOnes(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("word ", 40))
	got := wrapComment(long + "\n\n  keep   this " + long)
	if len(got) < 4 || got[len(got)-2] != "" || !strings.HasPrefix(got[len(got)-1], "  keep   this") {
		t.Fatalf("got %q", got)
	}
	for _, l := range got[:len(got)-2] {
		if len(l) > commentWidth {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
}
