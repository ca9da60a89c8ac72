package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/compat"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/graph"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

// graphArgs are the parsed flags and arguments of graph.
type graphArgs struct {
	format  string
	check   bool
	ignore  string
	against string // the revision after git:
	args    []string
}

// graphWriters are the formats graph writes.
var graphWriters = map[string]func(io.Writer, *sysgraph.Graph) error{
	"json": sysgraph.Write, "dot": graph.WriteDOT, "mermaid": graph.WriteMermaid}

// graphCmd builds the system graph of the modules or packages and writes
// it, checks it (--check) or compares it with a revision's (--against).
func graphCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	a, code, ok := parseGraph(args, stdout, stderr)
	if !ok {
		return code
	}
	g, err := graph.Build(a.args)
	if err != nil {
		fmt.Fprintf(stderr, "acemq-gen graph: %s\n", strings.TrimPrefix(err.Error(), "graph: "))
		return exitFindings
	}
	if a.against != "" {
		if code := graphAgainst(ctx, a, g, stdout, stderr); code != exitOK {
			return code
		}
	}
	if a.check {
		return graphCheck(a, g, stdout, stderr)
	}
	if a.against != "" {
		return exitOK
	}
	if err := graphWriters[a.format](stdout, g); err != nil {
		fmt.Fprintf(stderr, "acemq-gen graph: %v\n", err)
		return exitFindings
	}
	return exitOK
}

// graphCheck prints the findings of --check on stderr (exit 1), or a
// one-line verdict on stdout.
func graphCheck(a graphArgs, g *sysgraph.Graph, stdout, stderr io.Writer) int {
	var ignore []graph.Ignore
	if a.ignore != "" {
		f, err := os.Open(a.ignore)
		if err == nil {
			ignore, err = graph.ParseIgnore(f, a.ignore)
			f.Close()
		}
		if err != nil {
			fmt.Fprintf(stderr, "acemq-gen graph: %s\n", strings.TrimPrefix(err.Error(), "graph: "))
			return exitUsage
		}
	}
	for _, ig := range graph.Stale(g, ignore) {
		fmt.Fprintf(stderr, "%s:%d: warning: %s %s ignores nothing: remove the line\n", a.ignore, ig.Line, ig.Check, ig.Message)
	}
	fs := graph.Check(g, ignore)
	for _, f := range fs {
		fmt.Fprintln(stderr, f)
	}
	if len(fs) > 0 {
		return exitFindings
	}
	fmt.Fprintf(stdout, "graph: %s; no findings\n", ops.Plural(len(g.Services), "service"))
	return exitOK
}

// graphAgainst prints, one a line, what changed since the revision.
func graphAgainst(ctx context.Context, a graphArgs, g *sysgraph.Graph, stdout, stderr io.Writer) int {
	cwd, err := os.Getwd()
	if err == nil {
		cwd, err = filepath.EvalSymlinks(cwd)
	}
	var dir string
	var cleanup func()
	if err == nil {
		dir, cleanup, err = compat.Checkout(ctx, cwd, a.against)
	}
	if err != nil {
		fmt.Fprintf(stderr, "acemq-gen graph: --against git:%s: %v\n", a.against, err)
		return exitUsage
	}
	defer cleanup()
	old, err := graph.BuildIn(dir, relativeArgs(cwd, a.args))
	if err != nil {
		fmt.Fprintf(stderr, "acemq-gen graph: at git:%s: %s\n", a.against, strings.TrimPrefix(err.Error(), "graph: "))
		return exitFindings
	}
	changes := graph.Diff(old, g)
	for _, l := range changes {
		fmt.Fprintln(stdout, l)
	}
	if len(changes) == 0 {
		fmt.Fprintf(stdout, "graph: no change since git:%s\n", a.against)
	}
	return exitOK
}

// relativeArgs are the arguments with an absolute directory made relative
// to cwd, so that each names the same directory in a checkout; relative
// ones and patterns stay as they are.
func relativeArgs(cwd string, args []string) []string {
	out := slices.Clone(args)
	for i, arg := range args {
		if !filepath.IsAbs(arg) {
			continue
		}
		if real, err := filepath.EvalSymlinks(arg); err == nil {
			arg = real
		}
		if rel, err := filepath.Rel(cwd, arg); err == nil {
			out[i] = rel
		}
	}
	return out
}

// parseGraph reads graph's flags, before or after the arguments.
func parseGraph(args []string, stdout, stderr io.Writer) (a graphArgs, code int, ok bool) {
	c, _ := lookup("graph")
	fs := newFlags(c)
	fs.StringVar(&a.format, "format", "json", "the output's `FORMAT`: json, dot or mermaid")
	fs.BoolVar(&a.check, "check", false, "exit 1 on a message nobody consumes or produces, an RPC nobody serves, a command its owner sends")
	fs.StringVar(&a.ignore, "ignore", "", "with --check, the findings to ignore, one `FILE`")
	fs.StringVar(&a.against, "against", "", "print what changed since git:`REV`")
	if a.args, code, ok = parseAnywhere(c, fs, args, stdout, stderr); !ok {
		return a, code, false
	}
	rev, isGit := strings.CutPrefix(a.against, "git:")
	switch {
	case graphWriters[a.format] == nil:
		return a, c.usageError(stderr, "--format %q: want json, dot or mermaid", a.format), false
	case a.ignore != "" && !a.check:
		return a, c.usageError(stderr, "--ignore goes with --check"), false
	case a.against != "" && (!isGit || rev == ""):
		return a, c.usageError(stderr, "--against needs git:REV"), false
	case len(a.args) == 0:
		return a, c.usageError(stderr, "name at least one module directory or package pattern"), false
	}
	a.against = rev
	return a, exitOK, true
}
