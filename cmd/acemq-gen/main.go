// Command acemq-gen generates typed Go messaging code from acemq contracts.
//
//	acemq-gen generate [-o DIR] [--asyncapi] PATH...   write one package per domain into DIR/<package>/
//	acemq-gen check    [-o DIR] [--asyncapi] PATH...   exit 1, printing a diff, when DIR is not what generate would write
//	acemq-gen asyncapi [-o DIR] [--format yaml|json] [--server NAME=URL] PATH...   write one AsyncAPI 3.0 document per domain into DIR
//	acemq-gen vet      PATH...            validate only; warnings for deprecated use
//	acemq-gen compat   --against BASE | --history [--since REV] [--full] PATH...   exit 1 when a change breaks readers or writers built from BASE or any committed version
//	acemq-gen init     [-o DIR] [DOMAIN]  scaffold contracts/DOMAIN.acemq.yaml and a gen.go holding the go:generate line
//	acemq-gen dlq list|show|redrive --url URL [flags] [QUEUE] PATH...   list, show decoded and redrive dead letters
//	acemq-gen plan --url URL [--management URL] [--service S]... [--apply] PATH...   compare the contracts' topology with a live broker
//	acemq-gen version                     print the version
//	acemq-gen help     [COMMAND]          list the commands, or show one's usage, flags and an example
//
// PATH is a contract file or a directory searched recursively for
// *.acemq.yaml, *.acemq.yml and *.avsc; the files a contract names in imports:
// and schema: are read too. Exit codes: 0 ok, 1 findings, 2 usage. COMMAND -h
// (or --help) prints that command's help to stdout; an unknown command or
// flag is a usage error naming the nearest one.
package main

import (
	"context"
	"io"
	"os"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
)

// Exit codes.
const (
	exitOK       = ops.ExitOK
	exitFindings = ops.ExitFindings
	exitUsage    = ops.ExitUsage
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command: args without the program name. It returns the
// exit code and writes only to stdout and stderr (and, for generate, DIR).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	name := args[0]
	if name == "-h" || name == "-help" || name == "--help" {
		name = "help"
	}
	c, ok := lookup(name)
	if !ok {
		return unknownCommand(name, stderr)
	}
	return c.run(ctx, args[1:], stdout, stderr)
}
