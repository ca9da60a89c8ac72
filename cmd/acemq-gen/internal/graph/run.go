package graph

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/compat"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

// Options are what acemq-gen graph is given.
type Options struct {
	Format  string   // the output's format: json, dot or mermaid
	Check   bool     // check the graph instead of writing it
	Ignore  string   // with Check, the file of findings to ignore ("" none)
	Against string   // the revision after git: to compare with ("" none)
	Args    []string // the module directories or package patterns
}

// writers are the formats graph writes.
var writers = map[string]func(io.Writer, *sysgraph.Graph) error{
	"json": sysgraph.Write, "dot": WriteDOT, "mermaid": WriteMermaid}

// Writer is the writer of format (json, dot or mermaid), or nil when graph
// writes no such format.
func Writer(format string) func(io.Writer, *sysgraph.Graph) error {
	return writers[format]
}

// Run builds the system graph of o.Args and writes it, checks it (Check)
// or compares it with a revision's (Against); it returns the exit code.
func Run(ctx context.Context, o Options, stdout, stderr io.Writer) int {
	if Writer(o.Format) == nil {
		fmt.Fprintf(stderr, "acemq-gen graph: --format %q: want json, dot or mermaid\n", o.Format)
		return ops.ExitUsage
	}
	g, err := Build(o.Args)
	if err != nil {
		fmt.Fprintf(stderr, "acemq-gen graph: %s\n", strings.TrimPrefix(err.Error(), "graph: "))
		return ops.ExitFindings
	}
	if o.Against != "" {
		if code := against(ctx, o, g, stdout, stderr); code != ops.ExitOK {
			return code
		}
	}
	if o.Check {
		return check(o, g, stdout, stderr)
	}
	if o.Against != "" {
		return ops.ExitOK
	}
	if err := Writer(o.Format)(stdout, g); err != nil {
		fmt.Fprintf(stderr, "acemq-gen graph: %v\n", err)
		return ops.ExitFindings
	}
	return ops.ExitOK
}

// check prints the findings of --check on stderr (exit 1), or a one-line
// verdict on stdout.
func check(o Options, g *sysgraph.Graph, stdout, stderr io.Writer) int {
	var ignore []Ignore
	if o.Ignore != "" {
		f, err := os.Open(o.Ignore)
		if err == nil {
			ignore, err = ParseIgnore(f, o.Ignore)
			f.Close()
		}
		if err != nil {
			fmt.Fprintf(stderr, "acemq-gen graph: %s\n", strings.TrimPrefix(err.Error(), "graph: "))
			return ops.ExitUsage
		}
	}
	for _, ig := range Stale(g, ignore) {
		fmt.Fprintf(stderr, "%s:%d: warning: %s %s ignores nothing: remove the line\n", o.Ignore, ig.Line, ig.Check, ig.Message)
	}
	fs := Check(g, ignore)
	for _, f := range fs {
		fmt.Fprintln(stderr, f)
	}
	if len(fs) > 0 {
		return ops.ExitFindings
	}
	fmt.Fprintf(stdout, "graph: %s; no findings\n", ops.Plural(len(g.Services), "service"))
	return ops.ExitOK
}

// against prints, one a line, what changed since the revision.
func against(ctx context.Context, o Options, g *sysgraph.Graph, stdout, stderr io.Writer) int {
	cwd, err := os.Getwd()
	if err == nil {
		cwd, err = filepath.EvalSymlinks(cwd)
	}
	var dir string
	var cleanup func()
	if err == nil {
		dir, cleanup, err = compat.Checkout(ctx, cwd, o.Against)
	}
	if err != nil {
		fmt.Fprintf(stderr, "acemq-gen graph: --against git:%s: %v\n", o.Against, err)
		return ops.ExitUsage
	}
	defer cleanup()
	old, err := BuildIn(dir, relativeArgs(cwd, o.Args))
	if err != nil {
		fmt.Fprintf(stderr, "acemq-gen graph: at git:%s: %s\n", o.Against, strings.TrimPrefix(err.Error(), "graph: "))
		return ops.ExitFindings
	}
	changes := Diff(old, g)
	for _, l := range changes {
		fmt.Fprintln(stdout, l)
	}
	if len(changes) == 0 {
		fmt.Fprintf(stdout, "graph: no change since git:%s\n", o.Against)
	}
	return ops.ExitOK
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
