package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/registry"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// registryArgs are the flags and paths of registry push and check.
type registryArgs struct {
	registry.Options
	paths []string
}

// registryCmd is acemq-gen registry push|check.
func registryCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, _ := lookup("registry")
	sub, code, ok := c.subcommand(args, stdout, stderr)
	if !ok {
		return code
	}
	run := map[string]func(context.Context, *registry.Session) int{
		"push": registry.Push, "check": registry.Check}[sub]
	o, code, ok := parseRegistry(c, sub, args[1:], stdout, stderr)
	if !ok {
		return code
	}
	srcs, ok := ops.ReadSources(o.paths, stderr)
	if !ok {
		return exitFindings
	}
	reg, err := o.Client()
	if err != nil {
		fmt.Fprintf(stderr, "acemq-gen registry %s: %s\n", sub, ops.Unprefixed(err))
		return exitUsage
	}
	return run(ctx, &registry.Session{Sub: sub, Registry: reg, Where: acemq.RedactURL(o.URL), Sources: srcs, Stdout: stdout, Stderr: stderr})
}

// parseRegistry reads the flags of registry sub; the paths default to the
// current directory.
func parseRegistry(c command, sub string, args []string, stdout, stderr io.Writer) (o registryArgs, code int, ok bool) {
	fs := newFlags(c)
	fs.StringVar(&o.URL, "url", os.Getenv(registry.URLEnv), "the schema registry's `URL`")
	fs.StringVar(&o.User, "user", os.Getenv(registry.UserEnv), "the registry's basic-auth `USER`")
	fs.StringVar(&o.CA, "ca", "", "trust the CA certificates in `FILE` (PEM) instead of the system roots")
	fs.DurationVar(&o.Timeout, "timeout", 10*time.Second, "the longest wait for one registry request")
	for {
		if code, ok := parseFlags(c, fs, args, stdout, stderr); !ok {
			return o, code, false
		}
		if fs.NArg() == 0 {
			break
		}
		o.paths, args = append(o.paths, fs.Arg(0)), fs.Args()[1:]
	}
	switch {
	case o.URL == "":
		return o, c.usageError(stderr, "registry %s needs --url (or %s), the schema registry's URL", sub, registry.URLEnv), false
	case badURLFlag("--url", o.URL) != "":
		return o, c.usageError(stderr, "%s", badURLFlag("--url", o.URL)), false
	case o.Timeout <= 0:
		return o, c.usageError(stderr, "--timeout must be positive"), false
	case len(o.paths) == 0:
		o.paths = []string{"."}
	}
	return o, exitOK, true
}
