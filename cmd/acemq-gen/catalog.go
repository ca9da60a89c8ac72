package main

import (
	"context"
	"flag"
	"io"
	"slices"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/site"
)

// catalogCmd is acemq-gen catalog: write the contract catalog into DIR, or
// with --check exit 1 when DIR is not what it would write.
func catalogCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, _ := lookup("catalog")
	var o site.Options
	fs := newFlags(c)
	outputFlag(fs, &o.Dir, "the site's `DIR`")
	fs.StringVar(&o.Usage, "usage", "", "the usage graph `FILE` acemq-gen graph writes")
	fs.BoolVar(&o.History, "history", false, "each message's versions through git")
	fs.StringVar(&o.Since, "since", "", "with --history, only `REV` and the commits after it")
	fs.BoolVar(&o.Check, "check", false, "exit 1 when DIR is not what catalog would write")
	var code int
	var ok bool
	if o.Paths, code, ok = parseAnywhere(c, fs, args, stdout, stderr); !ok {
		return code
	}
	switch {
	case len(o.Paths) == 0:
		return c.usageError(stderr, "name at least one contract file or directory")
	case !flagGiven(fs, "o", "output"):
		return c.usageError(stderr, "name the site's directory with -o DIR")
	case o.Since != "" && !o.History:
		return c.usageError(stderr, "--since needs --history")
	}
	return site.Run(ctx, o, stdout, stderr)
}

// flagGiven reports whether any of names was given on the command line.
func flagGiven(fs *flag.FlagSet, names ...string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || slices.Contains(names, f.Name) })
	return given
}
