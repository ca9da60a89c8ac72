package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/dlq"
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// stringsFlag is a repeatable string flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

// dlqCmd is acemq-gen dlq list|show|redrive.
func dlqCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, _ := lookup("dlq")
	sub, code, ok := c.subcommand(args, stdout, stderr)
	if !ok {
		return code
	}
	run := map[string]func(context.Context, dlq.Options, io.Writer) error{
		"list": dlq.List, "show": dlq.Show, "redrive": dlq.Redrive}[sub]
	o, code, ok := parseDLQ(c, sub, args[1:], stdout, stderr)
	if !ok {
		return code
	}
	if err := run(ctx, o, stdout); err != nil {
		return ops.Fail(stderr, err)
	}
	return exitOK
}

// parseDLQ reads the flags of dlq sub and its arguments: QUEUE first for
// show and redrive, then the contract paths.
func parseDLQ(c command, sub string, args []string, stdout, stderr io.Writer) (o dlq.Options, code int, ok bool) {
	fs := newFlags(c)
	fs.StringVar(&o.URL, "url", "", "the broker's `URL`")
	fs.StringVar(&o.Registry, "registry", "", "the schema registry's `URL`")
	if sub == "list" {
		fs.Var((*stringsFlag)(&o.Services), "service", "a `SERVICE` whose event queues to include (repeatable)")
	}
	if sub == "show" {
		fs.BoolVar(&o.Raw, "raw", false, "print the bytes instead of decoding them")
	}
	if sub == "redrive" {
		redriveFlags(fs, &o)
	}
	rest, code, ok := parseAnywhere(c, fs, args, stdout, stderr)
	if !ok {
		return o, code, false
	}
	if bad := cmp.Or(badBrokerURL("dlq "+sub, o.URL), badURLFlag("--registry", o.Registry)); bad != "" {
		return o, c.usageError(stderr, "%s", bad), false
	}
	if sub != "list" {
		if len(rest) == 0 {
			return o, c.usageError(stderr, "dlq %s needs the QUEUE to read", sub), false
		}
		o.Queue, rest = rest[0], rest[1:]
	}
	if len(rest) == 0 {
		return o, c.usageError(stderr, "name at least one contract file or directory"), false
	}
	o.Paths = rest
	return o, exitOK, true
}

func redriveFlags(fs *flag.FlagSet, o *dlq.Options) {
	fs.StringVar(&o.Type, "type", "", "move only messages of `TYPE` (a message name or envelope type)")
	fs.StringVar(&o.Reason, "reason", "", "move only messages whose reason contains `TEXT`")
	fs.Var((*stringsFlag)(&o.Where), "where", "move only messages whose payload has `field=value` (repeatable; a.b for nested fields)")
	fs.IntVar(&o.Limit, "limit", 0, "move at most `N` messages (0: all)")
	fs.Var((*rateFlag)(&o.Rate), "rate", "move at most `N/s` messages a second (default: no limit)")
	fs.BoolVar(&o.DryRun, "dry-run", false, "say what would move, changing nothing")
}

// badURLFlag returns the usage error of the first of flags (name, value,
// name, value…) whose URL acemq.CheckURL refuses (a password with an
// unencoded reserved character), naming the flag and never the URL; ""
// when every one is usable. Every URL the commands print goes through
// acemq.RedactURL.
func badURLFlag(flags ...string) string {
	for i := 0; i+1 < len(flags); i += 2 {
		if err := acemq.CheckURL(flags[i+1]); err != nil {
			return flags[i] + ": " + ops.Unprefixed(err)
		}
	}
	return ""
}

// rateFlag is --rate: N or N/s messages a second.
type rateFlag float64

func (r *rateFlag) String() string { return strconv.FormatFloat(float64(*r), 'g', -1, 64) }

func (r *rateFlag) Set(v string) error {
	n, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), "/s"), 64)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a rate such as 10/s", v)
	}
	*r = rateFlag(n)
	return nil
}
