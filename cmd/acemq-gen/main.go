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
	if isHelpFlag(name) {
		name = "help"
	}
	c, ok := lookup(name)
	if !ok {
		return unknownCommand(name, stderr)
	}
	return c.run(ctx, args[1:], stdout, stderr)
}
