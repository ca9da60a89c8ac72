package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/compat"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
	"github.com/acemq/acemq-gen/generator"
)

// compatArgs are the parsed flags and paths of compat.
type compatArgs struct {
	compat.Options
	against string
	history bool // against every committed version instead
}

// compatCmd compares the contracts under the paths with BASE and exits 1 when a
// change breaks readers or writers built from BASE; when nothing breaks it
// says so in one line on stdout.
func compatCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	a, code, ok := parseCompat(args, stdout, stderr)
	if !ok {
		return code
	}
	if a.history {
		return compat.History(ctx, a.Options, stdout, stderr)
	}
	base, next, code := compatSources(ctx, a, stderr)
	if code != exitOK {
		return code
	}
	if ops.PrintDiagnostics(generator.Compat(base, next, a.CompatOptions()...), stderr) {
		return exitFindings
	}
	_, messages := generator.Count(base)
	fmt.Fprintf(stdout, "compat: %s checked against %s; nothing breaks\n", ops.Plural(messages, "message"), a.against)
	return exitOK
}

// compatSources reads BASE (a usage error when it cannot be read) and the
// new contracts.
func compatSources(ctx context.Context, a compatArgs, stderr io.Writer) (base, next []generator.Source, code int) {
	base, err := compat.ReadBase(ctx, a.against, a.Paths)
	if err != nil {
		fmt.Fprintf(stderr, "acemq-gen compat: reading BASE %s: %s\n", a.against, strings.TrimPrefix(err.Error(), "acemq-gen: "))
		return nil, nil, exitUsage
	}
	next, ok := ops.ReadSources(a.Paths, stderr)
	if !ok {
		return nil, nil, exitFindings
	}
	return base, next, exitOK
}

// parseCompat reads the flags, which may come before or after the paths.
// ok is false when compat must stop with code: after its help or a usage
// error.
func parseCompat(args []string, stdout, stderr io.Writer) (a compatArgs, code int, ok bool) {
	c, _ := lookup("compat")
	fs := newFlags(c)
	fs.StringVar(&a.against, "against", "", "the baseline: a `BASE` directory or git:REV")
	fs.BoolVar(&a.history, "history", false, "check against every committed version of each contract file")
	fs.StringVar(&a.Since, "since", "", "with --history, only the versions from `REV` on")
	fs.BoolVar(&a.Full, "full", false, "demand both directions for every message")
	fs.StringVar(&a.UsageFile, "usage", "", "the usage graph `FILE` (acemq-gen graph): a field nobody reads may go")
	if a.Paths, code, ok = parseAnywhere(c, fs, args, stdout, stderr); !ok {
		return a, code, false
	}
	if a.UsageFile != "" {
		var err error
		if a.Usage, err = sysgraph.Read(a.UsageFile); err != nil {
			return a, c.usageError(stderr, "--usage: %v", err), false
		}
	}
	switch {
	case a.history && a.against != "":
		return a, c.usageError(stderr, "--history and --against exclude each other"), false
	case a.Since != "" && !a.history:
		return a, c.usageError(stderr, "--since goes with --history"), false
	case a.history && len(a.Paths) == 0:
		return a, c.usageError(stderr, "name at least one contract file or directory"), false
	case a.history:
		return a, exitOK, true
	case strings.TrimPrefix(a.against, "git:") == "":
		return a, c.usageError(stderr, "--against needs a directory or git:REV (or give --history)"), false
	case len(a.Paths) == 0:
		return a, c.usageError(stderr, "name at least one contract file or directory"), false
	}
	return a, exitOK, true
}
