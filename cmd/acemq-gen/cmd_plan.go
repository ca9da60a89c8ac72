package main

import (
	"cmp"
	"context"
	"io"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/plan"
)

// planCmd is acemq-gen plan: exit 0 when the broker matches, 1 when it
// differs, 2 on a usage error or a broker that cannot be reached.
func planCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, _ := lookup("plan")
	var o plan.Options
	fs := newFlags(c)
	fs.StringVar(&o.URL, "url", "", "the broker's `URL`")
	fs.StringVar(&o.Management, "management", "", "the management API's `URL`")
	fs.Var((*stringsFlag)(&o.Services), "service", "a `SERVICE` whose event queues to include (repeatable)")
	fs.BoolVar(&o.Apply, "apply", false, "declare what is missing")
	var code int
	var ok bool
	if o.Paths, code, ok = parseAnywhere(c, fs, args, stdout, stderr); !ok {
		return code
	}
	if len(o.Paths) == 0 {
		return c.usageError(stderr, "name at least one contract file or directory")
	}
	if bad := cmp.Or(badBrokerURL("plan", o.URL), badURLFlag("--management", o.Management)); bad != "" {
		return c.usageError(stderr, "%s", bad)
	}
	matches, err := plan.Run(ctx, o, stdout)
	if err != nil {
		return ops.Fail(stderr, err)
	}
	if matches {
		return exitOK
	}
	return exitFindings
}
