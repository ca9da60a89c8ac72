// Command acemq-gen generates typed Go messaging code from acemq contracts.
//
//	acemq-gen generate [-o DIR] PATH...   write one package per domain into DIR/<package>/
//	acemq-gen check    [-o DIR] PATH...   exit 1, printing a diff, when DIR is not what generate would write
//	acemq-gen vet      PATH...            validate only; warnings for deprecated use
//	acemq-gen compat   --against BASE [--full] PATH...   exit 1 when a change breaks readers or writers built from BASE
//	acemq-gen init     [-o DIR] [DOMAIN]  scaffold DOMAIN.acemq.yaml and a gen.go holding the go:generate line
//	acemq-gen version                     print the version
//
// PATH is a contract file or a directory searched recursively for
// *.acemq.yaml, *.acemq.yml and *.avsc; the files a contract names in imports:
// and schema: are read too. Exit codes: 0 ok, 1 findings, 2 usage.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
)

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage:
  acemq-gen generate [-o DIR] PATH...   write one package per domain into DIR/<package>/ (DIR defaults to .)
  acemq-gen check    [-o DIR] PATH...   exit 1, printing a diff, when the files in DIR are not what generate would write
  acemq-gen vet      PATH...            validate only; warnings for deprecated use
  acemq-gen compat   --against BASE [--full] PATH...
                                        exit 1 when a change breaks readers or writers built from BASE
                                        (BASE: a directory or git:REV)
  acemq-gen init     [-o DIR] [DOMAIN]  scaffold DOMAIN.acemq.yaml and a gen.go holding the go:generate line
  acemq-gen version                     print the version

PATH is a contract file or a directory searched for *.acemq.yaml, *.acemq.yml and *.avsc.
Exit codes: 0 ok, 1 findings, 2 usage.
`

// run is the whole command: args without the program name. It returns the
// exit code and writes only to stdout and stderr (and, for generate, DIR).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "generate":
		return generate(ctx, args[1:], stdout, stderr)
	case "check":
		return check(ctx, args[1:], stdout, stderr)
	case "vet":
		return vet(ctx, args[1:], stdout, stderr)
	case "compat":
		return compat(ctx, args[1:], stdout, stderr)
	case "init":
		return initCmd(ctx, args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "acemq-gen", version())
		return exitOK
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "acemq-gen: unknown command %q\n%s", args[0], usage)
	return exitUsage
}
