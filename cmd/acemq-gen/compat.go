package main

import (
	"context"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/compat"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

// compatCmd compares the contracts under the paths with BASE and exits 1 when a
// change breaks readers or writers built from BASE; when nothing breaks it
// says so in one line on stdout.
func compatCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, code, ok := parseCompat(args, stdout, stderr)
	if !ok {
		return code
	}
	return compat.Run(ctx, o, stdout, stderr)
}

// parseCompat reads the flags, which may come before or after the paths.
// ok is false when compat must stop with code: after its help or a usage
// error.
func parseCompat(args []string, stdout, stderr io.Writer) (o compat.Options, code int, ok bool) {
	c, _ := lookup("compat")
	fs := newFlags(c)
	fs.StringVar(&o.Against, "against", "", "the baseline: a `BASE` directory or git:REV")
	fs.BoolVar(&o.History, "history", false, "check against every committed version of each contract file")
	fs.StringVar(&o.Since, "since", "", "with --history, only the versions from `REV` on")
	fs.BoolVar(&o.Full, "full", false, "demand both directions for every message")
	fs.StringVar(&o.UsageFile, "usage", "", "the usage graph `FILE` (acemq-gen graph): a field nobody reads may go")
	if o.Paths, code, ok = parseAnywhere(c, fs, args, stdout, stderr); !ok {
		return o, code, false
	}
	if o.UsageFile != "" {
		var err error
		if o.Usage, err = sysgraph.Read(o.UsageFile); err != nil {
			return o, c.usageError(stderr, "--usage: %v", err), false
		}
	}
	switch {
	case o.History && o.Against != "":
		return o, c.usageError(stderr, "--history and --against exclude each other"), false
	case o.Since != "" && !o.History:
		return o, c.usageError(stderr, "--since goes with --history"), false
	case o.History && len(o.Paths) == 0:
		return o, c.usageError(stderr, "name at least one contract file or directory"), false
	case o.History:
		return o, exitOK, true
	case strings.TrimPrefix(o.Against, "git:") == "":
		return o, c.usageError(stderr, "--against needs a directory or git:REV (or give --history)"), false
	case len(o.Paths) == 0:
		return o, c.usageError(stderr, "name at least one contract file or directory"), false
	}
	return o, exitOK, true
}
