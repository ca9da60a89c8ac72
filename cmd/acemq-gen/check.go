package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/output"
	"github.com/acemq/acemq-gen/generator"
)

// check compares dir with what generate would write: a missing, different or
// stale file is a finding, with a diff on stdout.
func check(_ context.Context, args []string, stdout, stderr io.Writer) int {
	o, res, code, ok := parseAndLoad("check", args, stdout, stderr)
	if !ok {
		return code
	}
	findings := 0
	for _, f := range res.Files {
		findings += output.CheckFile(filepath.Join(o.dir, filepath.FromSlash(f.Path)), f.Data, stdout, stderr)
	}
	return checkResult(findings+checkStale(o.dir, res.Files, stderr), stderr)
}

// checkStale reports the generated files generate would remove; it returns
// the number of findings.
func checkStale(dir string, files []generator.File, stderr io.Writer) int {
	stale, err := output.StaleFiles(dir, files)
	if err != nil {
		fmt.Fprintln(stderr, "acemq-gen:", err)
		return 1
	}
	for _, s := range stale {
		fmt.Fprintf(stderr, "acemq-gen: %s is not generated from any contract; acemq-gen generate would remove it\n", s)
	}
	return len(stale)
}

func checkResult(findings int, stderr io.Writer) int {
	if findings == 0 {
		return exitOK
	}
	fmt.Fprintf(stderr, "acemq-gen: %d generated file(s) out of date; run acemq-gen generate\n", findings)
	return exitFindings
}
