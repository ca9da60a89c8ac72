package main

import (
	"context"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/graph"
)

// graphCmd builds the system graph of the modules or packages and writes
// it, checks it (--check) or compares it with a revision's (--against).
func graphCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, code, ok := parseGraph(args, stdout, stderr)
	if !ok {
		return code
	}
	return graph.Run(ctx, o, stdout, stderr)
}

// parseGraph reads graph's flags, before or after the arguments.
func parseGraph(args []string, stdout, stderr io.Writer) (o graph.Options, code int, ok bool) {
	c, _ := lookup("graph")
	fs := newFlags(c)
	fs.StringVar(&o.Format, "format", "json", "the output's `FORMAT`: json, dot or mermaid")
	fs.BoolVar(&o.Check, "check", false, "exit 1 on a message nobody consumes or produces, an RPC nobody serves, a command its owner sends")
	fs.StringVar(&o.Ignore, "ignore", "", "with --check, the findings to ignore, one `FILE`")
	fs.StringVar(&o.Against, "against", "", "print what changed since git:`REV`")
	if o.Args, code, ok = parseAnywhere(c, fs, args, stdout, stderr); !ok {
		return o, code, false
	}
	rev, isGit := strings.CutPrefix(o.Against, "git:")
	switch {
	case graph.Writer(o.Format) == nil:
		return o, c.usageError(stderr, "--format %q: want json, dot or mermaid", o.Format), false
	case o.Ignore != "" && !o.Check:
		return o, c.usageError(stderr, "--ignore goes with --check"), false
	case o.Against != "" && (!isGit || rev == ""):
		return o, c.usageError(stderr, "--against needs git:REV"), false
	case len(o.Args) == 0:
		return o, c.usageError(stderr, "name at least one module directory or package pattern"), false
	}
	o.Against = rev
	return o, exitOK, true
}
