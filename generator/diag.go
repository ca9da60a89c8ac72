package generator

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Severity tells an error from a warning. Errors make generate, check and vet
// fail; warnings (deprecated use) are reported by vet only.
type Severity int

const (
	// Error is a problem that stops generation.
	Error Severity = iota
	// Warning is reported by vet and never stops generation.
	Warning
)

// Pos is a position in a contract file; Line and Col count from 1 (0 when
// unknown).
type Pos struct {
	File      string
	Line, Col int
}

// String renders the position as path:line:col, or path alone when the line
// is unknown (a problem of a whole file, or of the run).
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File // a problem of a whole file or of the run: no made-up 0:0
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Diagnostic is one problem found in the contracts.
type Diagnostic struct {
	Pos      Pos
	Severity Severity
	Message  string
}

// String renders the diagnostic as `path:line:col: message`, warnings as
// `path:line:col: warning: message`. Contract values in it can never drive
// a terminal or forge a diagnostic: a character that is not printable is
// written as a Go escape (\x00, \u202e), and a line of a multi-line
// message after the first is indented with a tab.
func (d Diagnostic) String() string {
	pos := Pos{File: displayText(d.Pos.File), Line: d.Pos.Line, Col: d.Pos.Col}
	if d.Severity == Warning {
		return fmt.Sprintf("%s: warning: %s", pos, displayText(d.Message))
	}
	return fmt.Sprintf("%s: %s", pos, displayText(d.Message))
}

// displayText is the escaping rule for text written to a terminal or a log:
// every character but a printable one, a tab and a newline becomes a Go
// escape, and a newline is followed by a tab.
func displayText(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == '\n' || (r != '\t' && !unicode.IsPrint(r)) }) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\n':
			b.WriteString("\n\t")
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t' || unicode.IsPrint(r):
			b.WriteRune(r)
		default:
			b.WriteString(runeEscape(r))
		}
	}
	return b.String()
}

// Diagnostics is every problem of one run, in file and position order.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	return slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Severity == Error })
}

// Errors returns the diagnostics that are errors.
func (ds Diagnostics) Errors() Diagnostics {
	return slices.DeleteFunc(slices.Clone(ds), func(d Diagnostic) bool { return d.Severity != Error })
}

// diags collects diagnostics across the stages of one run.
type diags struct {
	list Diagnostics
}

func (d *diags) errorf(p Pos, format string, args ...any) {
	d.list = append(d.list, Diagnostic{Pos: p, Severity: Error, Message: fmt.Sprintf(format, args...)})
}

func (d *diags) warnf(p Pos, format string, args ...any) {
	d.list = append(d.list, Diagnostic{Pos: p, Severity: Warning, Message: fmt.Sprintf(format, args...)})
}

// sorted returns the diagnostics ordered by file, line, column and message,
// without exact duplicates, so output never depends on input order.
func (d *diags) sorted() Diagnostics {
	out := slices.Clone(d.list)
	slices.SortStableFunc(out, compareDiagnostics)
	return slices.Compact(out)
}

func compareDiagnostics(a, b Diagnostic) int {
	return cmp.Or(a.Pos.compare(b.Pos), cmp.Compare(a.Message, b.Message))
}

// compare orders positions by file, line and column.
func (p Pos) compare(q Pos) int {
	return cmp.Or(cmp.Compare(p.File, q.File), cmp.Compare(p.Line, q.Line), cmp.Compare(p.Col, q.Col))
}
