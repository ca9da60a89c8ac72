package graph

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

// The checks graph --check runs, by the names an ignore file uses.
const (
	CheckUnconsumed  = "unconsumed"  // published or sent, consumed by nobody
	CheckUnpublished = "unpublished" // consumed, published or sent by nobody
	CheckUnserved    = "unserved"    // an RPC called, served by nobody
	CheckSelfSend    = "self-send"   // a command sent by the service that consumes it
)

var checkNames = []string{CheckUnconsumed, CheckUnpublished, CheckUnserved, CheckSelfSend}

// Finding is one problem --check finds, at a use.
type Finding struct {
	Check   string
	Message string // domain.Message
	Service string
	Pos     string // file:line in the service's module
	Module  string
	Text    string
}

// String renders f as module/file:line: check: text.
func (f Finding) String() string {
	return fmt.Sprintf("%s/%s: %s: %s", f.Module, f.Pos, f.Check, f.Text)
}

// Ignore is one line of an ignore file: a check to skip for a message.
type Ignore struct {
	Check, Message string
	Line           int
}

// ignores reports whether ig is f's.
func (ig Ignore) ignores(f Finding) bool { return ig.Check == f.Check && ig.Message == f.Message }

// ErrIgnoreFile is the error of an ignore file that cannot be read.
var ErrIgnoreFile = errors.New("graph: ignore file")

// ParseIgnore reads an ignore file: one "CHECK domain.Message" a line,
// blank lines and # comments skipped; name is what errors call it
// (name:line: message, every bad line).
func ParseIgnore(r io.Reader, name string) ([]Ignore, error) {
	var out []Ignore
	var errs []error
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case len(f) != 2 || !slices.Contains(checkNames, f[0]) || !strings.Contains(f[1], "."):
			errs = append(errs, fmt.Errorf("%s:%d: want CHECK domain.Message, CHECK one of %s", name, n, strings.Join(checkNames, ", ")))
		default:
			out = append(out, Ignore{Check: f[0], Message: f[1], Line: n})
		}
	}
	if err := errors.Join(append(errs, sc.Err())...); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrIgnoreFile, err)
	}
	return out, nil
}

// Check finds, in g, messages published or sent that nobody consumes,
// consumed that nobody publishes or sends, RPCs called that nobody serves,
// and commands sent by a service that consumes them, less those ignored.
func Check(g *sysgraph.Graph, ignore []Ignore) []Finding {
	idx := index(g)
	var out []Finding
	for _, s := range g.Services {
		out = append(out, idx.unconsumed(s)...)
		out = append(out, idx.unpublished(s)...)
		out = append(out, idx.unserved(s)...)
		out = append(out, selfSends(s)...)
	}
	out = slices.DeleteFunc(out, func(f Finding) bool {
		return slices.ContainsFunc(ignore, func(ig Ignore) bool { return ig.ignores(f) })
	})
	slices.SortFunc(out, func(x, y Finding) int {
		return cmp.Or(cmp.Compare(x.Message, y.Message), cmp.Compare(x.Check, y.Check), cmp.Compare(x.Service, y.Service), cmp.Compare(x.Pos, y.Pos))
	})
	return out
}

// Stale lists the lines of ignore that ignore no finding of g: the message
// is now consumed or produced, or gone.
func Stale(g *sysgraph.Graph, ignore []Ignore) []Ignore {
	fs := Check(g, nil)
	return slices.DeleteFunc(slices.Clone(ignore), func(ig Ignore) bool {
		return slices.ContainsFunc(fs, ig.ignores)
	})
}

// useIndex holds, per domain.Message, the services producing and consuming it.
type useIndex struct{ produced, consumed, served map[string][]string }

func index(g *sysgraph.Graph) useIndex {
	idx := useIndex{produced: map[string][]string{}, consumed: map[string][]string{}, served: map[string][]string{}}
	for _, s := range g.Services {
		for _, u := range append(slices.Clone(s.Publishes), s.Sends...) {
			idx.produced[qualified(u)] = append(idx.produced[qualified(u)], s.Name)
		}
		for _, u := range s.Consumes {
			idx.consumed[qualified(u)] = append(idx.consumed[qualified(u)], s.Name)
		}
		for _, u := range s.Serves {
			idx.served[qualified(u)] = append(idx.served[qualified(u)], s.Name)
		}
	}
	return idx
}

// qualified is a use's message as domain.Message.
func qualified(u sysgraph.Use) string { return u.Domain + "." + u.Message }

func finding(check string, s sysgraph.Service, u sysgraph.Use, format string) Finding {
	return Finding{Check: check, Message: qualified(u), Service: s.Name, Pos: u.Pos, Module: s.Module,
		Text: fmt.Sprintf(format, u.Kind+" "+qualified(u), s.Name)}
}

// unmatched are the findings of check for the uses nobody in others
// answers (others: domain.Message → services).
func unmatched(check string, s sysgraph.Service, uses []sysgraph.Use, others map[string][]string, format string) []Finding {
	var out []Finding
	for _, u := range uses {
		if len(others[qualified(u)]) == 0 {
			out = append(out, finding(check, s, u, format))
		}
	}
	return out
}

func (idx useIndex) unconsumed(s sysgraph.Service) []Finding {
	return append(unmatched(CheckUnconsumed, s, s.Publishes, idx.consumed, "%s is published by %s but consumed by nobody"),
		unmatched(CheckUnconsumed, s, s.Sends, idx.consumed, "%s is sent by %s but consumed by nobody")...)
}

func (idx useIndex) unpublished(s sysgraph.Service) []Finding {
	return unmatched(CheckUnpublished, s, s.Consumes, idx.produced, "%s is consumed by %s but published or sent by nobody")
}

func (idx useIndex) unserved(s sysgraph.Service) []Finding {
	return unmatched(CheckUnserved, s, s.Calls, idx.served, "%s is called by %s but served by nobody")
}

// selfSends are the commands s sends and also consumes (owns).
func selfSends(s sysgraph.Service) []Finding {
	var out []Finding
	for _, u := range s.Sends {
		if slices.ContainsFunc(s.Consumes, func(c sysgraph.Use) bool { return qualified(c) == qualified(u) }) {
			out = append(out, finding(CheckSelfSend, s, u, "%s is sent by %s, which owns it: call the code directly"))
		}
	}
	return out
}
