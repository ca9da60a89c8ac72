package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/acemq/acemq-gen/generator"
)

// options are the parsed flags and paths of a command.
type options struct {
	dir   string
	paths []string
}

// parse reads the flags of cmd; withDir adds -o. ok is false after a usage
// error has been reported.
func parse(cmd string, args []string, withDir bool, stderr io.Writer) (options, bool) {
	fs := flag.NewFlagSet("acemq-gen "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	if withDir {
		fs.StringVar(&o.dir, "o", ".", "output `DIR`; each domain goes to DIR/<package>/")
	}
	if err := fs.Parse(args); err != nil {
		return o, false
	}
	o.paths = fs.Args()
	if len(o.paths) == 0 {
		fmt.Fprintf(stderr, "acemq-gen %s: name at least one contract file or directory\n%s", cmd, usage)
		return o, false
	}
	return o, true
}

// load reads the sources and generates; code is non-zero when the command
// must stop with it.
func load(o options, stderr io.Writer) (generator.Result, int) {
	srcs, err := generator.ReadSources(o.paths)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return generator.Result{}, exitFindings
	}
	res := generator.Generate(srcs, generator.ImportPath(importPath(o.dir)))
	if printDiagnostics(res.Diagnostics, stderr) {
		return res, exitFindings
	}
	return res, exitOK
}

// printDiagnostics writes each diagnostic on its own line and reports
// whether any was an error.
func printDiagnostics(ds generator.Diagnostics, stderr io.Writer) bool {
	for _, d := range ds {
		fmt.Fprintln(stderr, d)
	}
	return ds.HasErrors()
}

func generate(_ context.Context, args []string, _, stderr io.Writer) int {
	o, ok := parse("generate", args, true, stderr)
	if !ok {
		return exitUsage
	}
	res, code := load(o, stderr)
	if code != exitOK {
		return code
	}
	if err := write(o.dir, res.Files); err != nil {
		fmt.Fprintln(stderr, err)
		return exitFindings
	}
	return exitOK
}

func vet(_ context.Context, args []string, _, stderr io.Writer) int {
	o, ok := parse("vet", args, false, stderr)
	if !ok {
		return exitUsage
	}
	srcs, err := generator.ReadSources(o.paths)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitFindings
	}
	if printDiagnostics(generator.Vet(srcs), stderr) {
		return exitFindings
	}
	return exitOK
}
