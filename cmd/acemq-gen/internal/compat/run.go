package compat

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator"
)

// Run compares the contracts under o.Paths with o.Against (or, with
// o.History, every committed version) and returns 1 when a change breaks
// readers or writers built from it; when nothing breaks it says so in one
// line on stdout.
func Run(ctx context.Context, o Options, stdout, stderr io.Writer) int {
	if o.History {
		return History(ctx, o, stdout, stderr)
	}
	base, next, code := sources(ctx, o, stderr)
	if code != ops.ExitOK {
		return code
	}
	if ops.PrintDiagnostics(generator.Compat(base, next, o.CompatOptions()...), stderr) {
		return ops.ExitFindings
	}
	_, messages := generator.Count(base)
	fmt.Fprintf(stdout, "compat: %s checked against %s; nothing breaks\n", ops.Plural(messages, "message"), o.Against)
	return ops.ExitOK
}

// sources reads BASE (a usage error when it cannot be read) and the new
// contracts.
func sources(ctx context.Context, o Options, stderr io.Writer) (base, next []generator.Source, code int) {
	base, err := ReadBase(ctx, o.Against, o.Paths)
	if err != nil {
		fmt.Fprintf(stderr, "acemq-gen compat: reading BASE %s: %s\n", o.Against, strings.TrimPrefix(err.Error(), "acemq-gen: "))
		return nil, nil, ops.ExitUsage
	}
	next, ok := ops.ReadSources(o.Paths, stderr)
	if !ok {
		return nil, nil, ops.ExitFindings
	}
	return base, next, ops.ExitOK
}
