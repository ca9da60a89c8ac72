package generator

import (
	"errors"
	"fmt"
	"go/scanner"
	"strconv"
	"strings"
)

// errGeneratedSource is wrapped by the error of a generated source that does
// not parse: always a bug of acemq-gen.
var errGeneratedSource = errors.New("the generated Go source does not parse (a bug of acemq-gen: please report it with the contract)")

// Limits of the excerpt sourceError shows.
const (
	sourceContextLines = 2   // lines shown before and after the problem's
	sourceLineWidth    = 160 // bytes of a shown line; the rest is cut
)

// sourceError is err, a parse error of the generated src, with the lines
// around its first position (quoted where they hold what a terminal should
// not print), never the whole source.
func sourceError(src []byte, err error) error {
	var list scanner.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return fmt.Errorf("%w: %v", errGeneratedSource, err)
	}
	line := list[0].Pos.Line
	return fmt.Errorf("%w: %v\n%s", errGeneratedSource, err, excerpt(src, line))
}

// excerpt is the lines of src around line (1-based), numbered, the line
// itself marked with >.
func excerpt(src []byte, line int) string {
	lines := strings.Split(string(src), "\n")
	var b strings.Builder
	for n := max(1, line-sourceContextLines); n <= min(len(lines), line+sourceContextLines); n++ {
		mark := " "
		if n == line {
			mark = ">"
		}
		fmt.Fprintf(&b, "%s %5d | %s\n", mark, n, displayLine(lines[n-1]))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// displayLine is l cut to sourceLineWidth and quoted, Go-style, when it
// holds a character that is not printable.
func displayLine(l string) string {
	cut := len(l) > sourceLineWidth
	if cut {
		l = l[:sourceLineWidth]
	}
	if q := strconv.QuoteToGraphic(l); q[1:len(q)-1] != l {
		l = q
	}
	if cut {
		l += " …"
	}
	return l
}
