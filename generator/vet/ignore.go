package vet

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ignoreDirective, on the line of a diagnostic or the line above it, keeps
// that diagnostic from being reported:
//
//	//acemqvet:ignore interceptorpanic the test proves the runtime recovers it
//
// It names one analyzer, or several separated by commas, then says why.
const ignoreDirective = "//acemqvet:ignore "

// honouringIgnores wraps run so that diagnostics an ignore directive names
// are dropped.
func honouringIgnores(run func(*analysis.Pass) (any, error)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) {
			if !ignored(pass, d) {
				report(d)
			}
		}
		return run(pass)
	}
}

// ignored reports whether a directive on d's line or the one above names
// the pass's analyzer.
func ignored(pass *analysis.Pass, d analysis.Diagnostic) bool {
	f := fileOf(pass, d)
	if f == nil {
		return false
	}
	line := pass.Fset.Position(d.Pos).Line
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			l := pass.Fset.Position(c.Slash).Line
			if (l == line || l == line-1) && namesAnalyzer(c.Text, pass.Analyzer.Name) {
				return true
			}
		}
	}
	return false
}

func fileOf(pass *analysis.Pass, d analysis.Diagnostic) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= d.Pos && d.Pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// namesAnalyzer reports whether comment is an ignore directive naming name.
func namesAnalyzer(comment, name string) bool {
	rest, ok := strings.CutPrefix(comment, ignoreDirective)
	if !ok {
		return false
	}
	names, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	for n := range strings.SplitSeq(names, ",") {
		if n == name {
			return true
		}
	}
	return false
}
