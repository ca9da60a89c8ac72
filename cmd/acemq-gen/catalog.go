package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/compat"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/site"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
	"github.com/acemq/acemq-gen/generator"
)

// catalogOptions are acemq-gen catalog's flags and paths.
type catalogOptions struct {
	dir, usage, since string
	history, check    bool
	paths             []string
}

// catalogCmd is acemq-gen catalog: write the contract catalog into DIR, or
// with --check exit 1 when DIR is not what it would write.
func catalogCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, _ := lookup("catalog")
	var o catalogOptions
	fs := newFlags(c)
	outputFlag(fs, &o.dir, "the site's `DIR`")
	fs.StringVar(&o.usage, "usage", "", "the usage graph `FILE` acemq-gen graph writes")
	fs.BoolVar(&o.history, "history", false, "each message's versions through git")
	fs.StringVar(&o.since, "since", "", "with --history, only `REV` and the commits after it")
	fs.BoolVar(&o.check, "check", false, "exit 1 when DIR is not what catalog would write")
	var code int
	var ok bool
	if o.paths, code, ok = parseAnywhere(c, fs, args, stdout, stderr); !ok {
		return code
	}
	switch {
	case len(o.paths) == 0:
		return c.usageError(stderr, "name at least one contract file or directory")
	case !flagGiven(fs, "o", "output"):
		return c.usageError(stderr, "name the site's directory with -o DIR")
	case o.since != "" && !o.history:
		return c.usageError(stderr, "--since needs --history")
	}
	files, code := buildCatalog(ctx, o, stderr)
	if code != exitOK {
		return code
	}
	if o.check {
		return checkCatalog(o.dir, files, stdout, stderr)
	}
	if err := site.Write(o.dir, files); err != nil {
		return ops.Fail(stderr, err)
	}
	fmt.Fprintf(stdout, "catalog: %s written to %s\n", ops.Plural(len(files), "file"), filepath.Join(o.dir, "index.html"))
	return exitOK
}

// flagGiven reports whether any of names was given on the command line.
func flagGiven(fs *flag.FlagSet, names ...string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || slices.Contains(names, f.Name) })
	return given
}

// buildCatalog reads the contracts, the usage graph and the history of o
// and renders the site.
func buildCatalog(ctx context.Context, o catalogOptions, stderr io.Writer) ([]site.File, int) {
	srcs, ok := ops.ReadSources(o.paths, stderr)
	if !ok {
		return nil, exitFindings
	}
	entries, domains, ds := generator.CatalogContents(srcs)
	if ops.PrintDiagnostics(ds, stderr) {
		return nil, exitFindings
	}
	in := site.Input{Entries: entries, Domains: domains}
	var err error
	if o.usage != "" {
		if in.Usage, err = sysgraph.Read(o.usage); err != nil {
			fmt.Fprintf(stderr, "acemq-gen catalog: %s\n", err)
			return nil, exitUsage
		}
	}
	if o.history {
		revs, err := compat.Revisions(ctx, srcs, o.since)
		if err != nil {
			fmt.Fprintf(stderr, "acemq-gen catalog: reading the history: %s\n", err)
			return nil, exitUsage
		}
		in.History = site.NewHistory(revs)
	}
	files, err := site.Build(in)
	if err != nil {
		return nil, ops.Fail(stderr, err)
	}
	return files, exitOK
}

// checkCatalog compares dir with files as check does generated code: a
// missing, different or stale file is a finding.
func checkCatalog(dir string, files []site.File, stdout, stderr io.Writer) int {
	findings := 0
	for _, f := range files {
		findings += checkFile(filepath.Join(dir, filepath.FromSlash(f.Path)), f.Data, stdout, stderr)
	}
	stale, err := site.Stale(dir, files)
	if err != nil {
		return ops.Fail(stderr, err)
	}
	for _, s := range stale {
		fmt.Fprintf(stderr, "acemq-gen: %s is not part of the catalog; acemq-gen catalog would remove it\n", filepath.Join(dir, filepath.FromSlash(s)))
	}
	if findings += len(stale); findings == 0 {
		return exitOK
	}
	fmt.Fprintf(stderr, "acemq-gen: %d catalog file(s) out of date; run acemq-gen catalog\n", findings)
	return exitFindings
}
