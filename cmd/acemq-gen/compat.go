package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/generator"
)

// compatUsage is printed with a compat usage error.
const compatUsage = `usage: acemq-gen compat --against BASE [--full] PATH...
  BASE is a directory or git:REV (read with git show, no checkout needed)
`

// compatArgs are the parsed flags and paths of compat.
type compatArgs struct {
	against string
	full    bool
	paths   []string
}

// compat compares the contracts under the paths with BASE and exits 1 when a
// change breaks readers or writers built from BASE.
func compat(ctx context.Context, args []string, _, stderr io.Writer) int {
	a, ok := parseCompat(args, stderr)
	if !ok {
		return exitUsage
	}
	base, next, code := compatSources(ctx, a, stderr)
	if code != exitOK {
		return code
	}
	if printDiagnostics(generator.Compat(base, next, a.options()...), stderr) {
		return exitFindings
	}
	return exitOK
}

// compatSources reads BASE (a usage error when it cannot be read) and the
// new contracts.
func compatSources(ctx context.Context, a compatArgs, stderr io.Writer) (base, next []generator.Source, code int) {
	base, err := readBase(ctx, a.against, a.paths)
	if err != nil {
		fmt.Fprintf(stderr, "acemq-gen compat: reading BASE %s: %s\n", a.against, strings.TrimPrefix(err.Error(), "acemq-gen: "))
		return nil, nil, exitUsage
	}
	if next, err = generator.ReadSources(a.paths); err != nil {
		fmt.Fprintln(stderr, err)
		return nil, nil, exitFindings
	}
	return base, next, exitOK
}

func (a compatArgs) options() []generator.CompatOption {
	if a.full {
		return []generator.CompatOption{generator.CompatFull()}
	}
	return nil
}

// parseCompat reads the flags, which may come before or after the paths.
func parseCompat(args []string, stderr io.Writer) (compatArgs, bool) {
	var a compatArgs
	fs := flag.NewFlagSet("acemq-gen compat", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&a.against, "against", "", "the baseline: a `BASE` directory or git:REV")
	fs.BoolVar(&a.full, "full", false, "demand both directions for every message")
	for {
		if err := fs.Parse(args); err != nil {
			return a, false
		}
		if fs.NArg() == 0 {
			break
		}
		a.paths, args = append(a.paths, fs.Arg(0)), fs.Args()[1:]
	}
	return a, a.valid(stderr)
}

func (a compatArgs) valid(stderr io.Writer) bool {
	switch {
	case strings.TrimPrefix(a.against, "git:") == "":
		fmt.Fprintf(stderr, "acemq-gen compat: --against needs a directory or git:REV\n%s", compatUsage)
	case len(a.paths) == 0:
		fmt.Fprintf(stderr, "acemq-gen compat: name at least one contract file or directory\n%s", compatUsage)
	default:
		return true
	}
	return false
}
