package main

import (
	"context"
	"fmt"
	"io"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/plan"
)

// planCmd is acemq-gen plan: exit 0 when the broker matches, 1 when it
// differs, 2 on a usage error or a failure.
func planCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, _ := lookup("plan")
	var o plan.Options
	fs := newFlags(c)
	fs.StringVar(&o.URL, "url", "", "the broker's `URL`")
	fs.StringVar(&o.Management, "management", "", "the management API's `URL`")
	fs.Var((*stringsFlag)(&o.Services), "service", "a `SERVICE` whose event queues to include (repeatable)")
	fs.BoolVar(&o.Apply, "apply", false, "declare what is missing")
	if code, ok := parseFlags(c, fs, args, stdout, stderr); !ok {
		return code
	}
	if o.Paths = fs.Args(); len(o.Paths) == 0 {
		return c.usageError(stderr, "name at least one contract file or directory")
	}
	if o.URL == "" {
		return c.usageError(stderr, "plan needs --url, the broker's URL")
	}
	if bad := badURLFlag("--url", o.URL, "--management", o.Management); bad != "" {
		return c.usageError(stderr, "%s", bad)
	}
	matches, err := plan.Run(ctx, o, stdout)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	if matches {
		return exitOK
	}
	return exitFindings
}
