package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/output"
	"github.com/acemq/acemq-gen/generator"
)

// options are the parsed flags and paths of a command.
type options struct {
	dir      string
	asyncapi bool // generate and check: the AsyncAPI documents too
	paths    []string
}

// parse reads the flags of the command named name, before or after its
// paths; withDir adds -o (and its long form --output) and --asyncapi. ok is
// false when the command must stop with code: after its help or a usage
// error.
func parse(name string, args []string, withDir bool, stdout, stderr io.Writer) (o options, code int, ok bool) {
	c, _ := lookup(name)
	fs := newFlags(c)
	if withDir {
		outputFlag(fs, &o.dir, "output `DIR`; each domain goes to DIR/<package>/")
		fs.BoolVar(&o.asyncapi, "asyncapi", false, "also DIR/<domain>.asyncapi.yaml, one AsyncAPI 3.0 document per domain")
	}
	if o.paths, code, ok = parseAnywhere(c, fs, args, stdout, stderr); !ok {
		return o, code, false
	}
	if len(o.paths) == 0 {
		return o, c.usageError(stderr, "name at least one contract file or directory"), false
	}
	return o, exitOK, true
}

// load reads the sources and generates; code is non-zero when the command
// must stop with it.
func load(o options, stderr io.Writer) (generator.Result, int) {
	srcs, ok := ops.ReadSources(o.paths, stderr)
	if !ok {
		return generator.Result{}, exitFindings
	}
	abs, _ := filepath.Abs(o.dir)
	res := generator.Generate(srcs, generator.ImportPath(output.ImportPath(o.dir)), generator.ModuleDir(output.ExistingDir(abs)))
	if ops.PrintDiagnostics(res.Diagnostics, stderr) {
		return res, exitFindings
	}
	if o.asyncapi {
		docs := generator.AsyncAPI(srcs)
		if ops.PrintDiagnostics(docs.Diagnostics, stderr) {
			return res, exitFindings
		}
		res.Files = append(res.Files, docs.Files...)
	}
	return res, exitOK
}

// parseAndLoad is parse (with -o) then load, for the commands that write or
// compare generated files; ok is false when the command must stop with code.
func parseAndLoad(name string, args []string, stdout, stderr io.Writer) (options, generator.Result, int, bool) {
	o, code, ok := parse(name, args, true, stdout, stderr)
	if !ok {
		return o, generator.Result{}, code, false
	}
	res, code := load(o, stderr)
	return o, res, code, code == exitOK
}

func generate(_ context.Context, args []string, stdout, stderr io.Writer) int {
	o, res, code, ok := parseAndLoad("generate", args, stdout, stderr)
	if !ok {
		return code
	}
	if err := output.Write(o.dir, res.Files); err != nil {
		fmt.Fprintln(stderr, err)
		return exitFindings
	}
	return exitOK
}

// vet validates only; when it finds no error it ends with a one-line
// verdict on stdout.
func vet(_ context.Context, args []string, stdout, stderr io.Writer) int {
	o, code, ok := parse("vet", args, false, stdout, stderr)
	if !ok {
		return code
	}
	srcs, ok := ops.ReadSources(o.paths, stderr)
	if !ok {
		return exitFindings
	}
	ds := generator.Vet(srcs)
	if ops.PrintDiagnostics(ds, stderr) {
		return exitFindings
	}
	contracts, messages := generator.Count(srcs)
	fmt.Fprintf(stdout, "vet: %s, %s; %s\n", ops.Plural(contracts, "contract"), ops.Plural(messages, "message"), vetVerdict(ds))
	return exitOK
}

// vetVerdict is "no problems", or how many warnings vet printed.
func vetVerdict(ds generator.Diagnostics) string {
	if len(ds) == 0 {
		return "no problems"
	}
	return ops.Plural(len(ds), "warning") + ", no errors"
}
