package generator

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
)

// TestUnparseableGeneratedSourceIsNotPrintedWhole renders a file of 300
// functions with a statement that does not parse in the middle: the error
// names the problem with the lines around it (numbered, the line itself
// marked, a NUL quoted), not the whole source.
func TestUnparseableGeneratedSourceIsNotPrintedWhole(t *testing.T) {
	f := jen.NewFile("p")
	for i := range 300 {
		body := []jen.Code{jen.Return(jen.Lit(i))}
		if i == 150 {
			body = []jen.Code{jen.Op("return )(\x00 ").Lit(i)}
		}
		f.Func().Id(fmt.Sprintf("F%d", i)).Params().Int().Block(body...)
	}
	_, err := render(f)
	if !errors.Is(err, errGeneratedSource) {
		t.Fatalf("err = %v, want errGeneratedSource", err)
	}
	msg := err.Error()
	if len(msg) > 1500 || strings.Contains(msg, "func F0 ") || strings.Contains(msg, "func F299 ") || strings.Contains(msg, "\x00") {
		t.Fatalf("the error holds too much of the source (%d bytes) or a raw NUL:\n%s", len(msg), msg)
	}
	if !strings.Contains(msg, "func F150 ") || !strings.Contains(msg, "> ") || !strings.Contains(msg, `\x00`) {
		t.Fatalf("the error does not show the line that fails:\n%s", msg)
	}
}

// TestSourceExcerptCutsLongLines keeps a shown line (a schema literal may be
// megabytes) to sourceLineWidth.
func TestSourceExcerptCutsLongLines(t *testing.T) {
	src := "package p\n\nvar x = \"" + strings.Repeat("a", 100000) + "\"\n"
	if got := excerpt([]byte(src), 3); len(got) > 400 || !strings.Contains(got, "…") {
		t.Fatalf("excerpt is %d bytes:\n%.500s", len(got), got)
	}
}
