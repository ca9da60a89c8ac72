package site

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/compat"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/output"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
	"github.com/acemq/acemq-gen/generator"
)

// Options are what acemq-gen catalog is given.
type Options struct {
	Dir     string   // the site's directory
	Usage   string   // the usage graph file acemq-gen graph writes ("" none)
	History bool     // each message's versions through git
	Since   string   // with History, only this revision and the commits after it
	Check   bool     // write nothing; compare Dir with what would be written
	Paths   []string // the contract files or directories
}

// Run writes the contract catalog of o.Paths into o.Dir or, with o.Check,
// exits 1 when o.Dir is not what it would write; it returns the exit code.
func Run(ctx context.Context, o Options, stdout, stderr io.Writer) int {
	files, code := render(ctx, o, stderr)
	if code != ops.ExitOK {
		return code
	}
	if o.Check {
		return checkDir(o.Dir, files, stdout, stderr)
	}
	if err := Write(o.Dir, files); err != nil {
		return ops.Fail(stderr, err)
	}
	fmt.Fprintf(stdout, "catalog: %s written to %s\n", ops.Plural(len(files), "file"), filepath.Join(o.Dir, "index.html"))
	return ops.ExitOK
}

// render reads the contracts, the usage graph and the history of o and
// renders the site.
func render(ctx context.Context, o Options, stderr io.Writer) ([]File, int) {
	srcs, ok := ops.ReadSources(o.Paths, stderr)
	if !ok {
		return nil, ops.ExitFindings
	}
	entries, domains, ds := generator.CatalogContents(srcs)
	if ops.PrintDiagnostics(ds, stderr) {
		return nil, ops.ExitFindings
	}
	in := Input{Entries: entries, Domains: domains}
	var err error
	if o.Usage != "" {
		if in.Usage, err = sysgraph.Read(o.Usage); err != nil {
			fmt.Fprintf(stderr, "acemq-gen catalog: %s\n", err)
			return nil, ops.ExitUsage
		}
	}
	if o.History {
		revs, err := compat.Revisions(ctx, srcs, o.Since)
		if err != nil {
			fmt.Fprintf(stderr, "acemq-gen catalog: reading the history: %s\n", err)
			return nil, ops.ExitUsage
		}
		in.History = NewHistory(revs)
	}
	files, err := Build(in)
	if err != nil {
		return nil, ops.Fail(stderr, err)
	}
	return files, ops.ExitOK
}

// checkDir compares dir with files as acemq-gen check does generated code:
// a missing, different or stale file is a finding.
func checkDir(dir string, files []File, stdout, stderr io.Writer) int {
	findings := 0
	for _, f := range files {
		findings += output.CheckFile(filepath.Join(dir, filepath.FromSlash(f.Path)), f.Data, stdout, stderr)
	}
	stale, err := Stale(dir, files)
	if err != nil {
		return ops.Fail(stderr, err)
	}
	for _, s := range stale {
		fmt.Fprintf(stderr, "acemq-gen: %s is not part of the catalog; acemq-gen catalog would remove it\n", filepath.Join(dir, filepath.FromSlash(s)))
	}
	if findings += len(stale); findings == 0 {
		return ops.ExitOK
	}
	fmt.Fprintf(stderr, "acemq-gen: %d catalog file(s) out of date; run acemq-gen catalog\n", findings)
	return ops.ExitFindings
}
