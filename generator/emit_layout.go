package generator

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"sort"
	"strings"
)

// maxListLine is the width past which a line's argument list, parameter
// list, composite literal or case list is broken one element per line.
const maxListLine = 100

// tabWidth is how many columns a tab counts for in line widths.
const tabWidth = 4

// breakLongLists rewrites formatted Go source so that no line past
// maxListLine holds a list it could break: on each such line the leftmost
// list that starts and ends there is broken one element per line, and the
// source is formatted again, until no line changes. A line whose width
// comes from one long literal (a schema) stays as it is.
func breakLongLists(src []byte) ([]byte, error) {
	for range 32 {
		edits, err := listBreaks(src)
		if err != nil || len(edits) == 0 {
			return src, err
		}
		edited := applyEdits(src, edits)
		if src, err = format.Source(edited); err != nil {
			return nil, sourceError(edited, err)
		}
	}
	return src, nil
}

// edit inserts text at a byte offset.
type edit struct {
	at   int
	text string
}

// breakable is a list the layout can break: where it opens, its elements,
// where the last element ends (its ... included) and whether breaking it
// needs a trailing comma (every list but a case clause's).
type breakable struct {
	open  token.Pos
	elems []ast.Node
	end   token.Pos
	comma bool
}

func listBreaks(src []byte) ([]edit, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	long := longLines(src)
	chosen := map[int]breakable{}
	ast.Inspect(f, func(n ast.Node) bool {
		l, ok := listOf(n)
		if !ok || len(l.elems) == 0 {
			return true
		}
		line := fset.Position(l.open).Line
		if !long[line] || fset.Position(l.end).Line != line {
			return true
		}
		if prev, seen := chosen[line]; !seen || l.open < prev.open {
			chosen[line] = l
		}
		return true
	})
	var edits []edit
	for _, l := range chosen {
		edits = append(edits, l.breaks(fset)...)
	}
	return edits, nil
}

// listOf returns the list n holds, if it is one the layout breaks.
func listOf(n ast.Node) (breakable, bool) {
	switch n := n.(type) {
	case *ast.CallExpr:
		end := token.NoPos
		if len(n.Args) > 0 {
			end = n.Args[len(n.Args)-1].End()
		}
		if n.Ellipsis.IsValid() {
			end = n.Ellipsis + 3
		}
		return breakable{open: n.Lparen, elems: exprNodes(n.Args), end: end, comma: true}, true
	case *ast.CompositeLit:
		if len(n.Elts) == 0 {
			return breakable{}, false
		}
		return breakable{open: n.Lbrace, elems: exprNodes(n.Elts), end: n.Elts[len(n.Elts)-1].End(), comma: true}, true
	case *ast.FuncType:
		if n.Params == nil || len(n.Params.List) == 0 || !n.Params.Opening.IsValid() {
			return breakable{}, false
		}
		var elems []ast.Node
		for _, fl := range n.Params.List {
			elems = append(elems, fl)
		}
		return breakable{open: n.Params.Opening, elems: elems, end: elems[len(elems)-1].End(), comma: true}, true
	case *ast.CaseClause:
		if len(n.List) < 2 {
			return breakable{}, false
		}
		return breakable{open: n.Case, elems: exprNodes(n.List), end: n.List[len(n.List)-1].End()}, true
	}
	return breakable{}, false
}

func exprNodes(es []ast.Expr) []ast.Node {
	out := make([]ast.Node, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// breaks puts each element of l on a line of its own.
func (l breakable) breaks(fset *token.FileSet) []edit {
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var out []edit
	for i, e := range l.elems {
		if i > 0 || l.comma {
			out = append(out, edit{at: off(e.Pos()), text: "\n"})
		}
	}
	if l.comma {
		out = append(out, edit{at: off(l.end), text: ",\n"})
	}
	return out
}

// applyEdits inserts every edit into src in one pass (linear in the source
// and the edits). Edits at one offset go in the reverse of their order after
// the descending sort, as inserting them one by one at that offset did.
func applyEdits(src []byte, edits []edit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].at > edits[j].at })
	size := len(src)
	for _, e := range edits {
		size += len(e.text)
	}
	out, last := make([]byte, 0, size), 0
	for i := len(edits) - 1; i >= 0; i-- {
		out = append(append(out, src[last:edits[i].at]...), edits[i].text...)
		last = edits[i].at
	}
	return append(out, src[last:]...)
}

// longLines are the 1-based numbers of the lines wider than maxListLine.
func longLines(src []byte) map[int]bool {
	out := map[int]bool{}
	for i, l := range strings.Split(string(src), "\n") {
		if lineWidth(l) > maxListLine {
			out[i+1] = true
		}
	}
	return out
}

// lineWidth is l's width in columns, a tab counting tabWidth.
func lineWidth(l string) int {
	return len([]rune(l)) + strings.Count(l, "\t")*(tabWidth-1)
}
