package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/acemq"
	_ "github.com/acemq/acemq-gen/runtime/rabbitmq" // amqp:// and amqps://
)

// strings is a repeatable string flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

// dlqOptions are the flags of every dlq subcommand.
type dlqOptions struct {
	url, registry string
	services      stringsFlag
	raw           bool
	typ, reason   string
	where         stringsFlag
	limit         int
	rate          rateFlag
	dryRun        bool
	queue         string
	paths         []string
}

// dlqCmd is acemq-gen dlq list|show|redrive.
func dlqCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, _ := lookup("dlq")
	if len(args) == 0 {
		return c.usageError(stderr, "name a subcommand: list, show or redrive")
	}
	sub := args[0]
	if sub == "-h" || sub == "-help" || sub == "--help" {
		c.printHelp(stdout)
		return exitOK
	}
	run := map[string]func(context.Context, dlqOptions, io.Writer) error{
		"list": dlqList, "show": dlqShow, "redrive": dlqRedrive}[sub]
	if run == nil {
		return c.usageError(stderr, "unknown subcommand %q%s", sub, didYouMean(suggest(sub, []string{"list", "show", "redrive"})))
	}
	o, code, ok := parseDLQ(c, sub, args[1:], stdout, stderr)
	if !ok {
		return code
	}
	if err := run(ctx, o, stdout); err != nil {
		fmt.Fprintln(stderr, err)
		return exitFindings
	}
	return exitOK
}

// parseDLQ reads the flags of dlq sub and its arguments: QUEUE first for
// show and redrive, then the contract paths.
func parseDLQ(c command, sub string, args []string, stdout, stderr io.Writer) (o dlqOptions, code int, ok bool) {
	fs := newFlags(c)
	fs.StringVar(&o.url, "url", "", "the broker's `URL`")
	fs.StringVar(&o.registry, "registry", "", "the schema registry's `URL`")
	if sub == "list" {
		fs.Var(&o.services, "service", "a `SERVICE` whose event queues to include (repeatable)")
	}
	if sub == "show" {
		fs.BoolVar(&o.raw, "raw", false, "print the bytes instead of decoding them")
	}
	if sub == "redrive" {
		redriveFlags(fs, &o)
	}
	if code, ok := parseFlags(c, fs, args, stdout, stderr); !ok {
		return o, code, false
	}
	rest := fs.Args()
	if o.url == "" {
		return o, c.usageError(stderr, "dlq %s needs --url, the broker's URL", sub), false
	}
	if bad := badURLFlag("--url", o.url, "--registry", o.registry); bad != "" {
		return o, c.usageError(stderr, "%s", bad), false
	}
	if sub != "list" {
		if len(rest) == 0 {
			return o, c.usageError(stderr, "dlq %s needs the QUEUE to read", sub), false
		}
		o.queue, rest = rest[0], rest[1:]
	}
	if len(rest) == 0 {
		return o, c.usageError(stderr, "name at least one contract file or directory"), false
	}
	o.paths = rest
	return o, exitOK, true
}

func redriveFlags(fs *flag.FlagSet, o *dlqOptions) {
	fs.StringVar(&o.typ, "type", "", "move only messages of `TYPE` (a message name or envelope type)")
	fs.StringVar(&o.reason, "reason", "", "move only messages whose reason contains `TEXT`")
	fs.Var(&o.where, "where", "move only messages whose payload has `field=value` (repeatable; a.b for nested fields)")
	fs.IntVar(&o.limit, "limit", 0, "move at most `N` messages (0: all)")
	fs.Var(&o.rate, "rate", "move at most `N/s` messages a second (default: no limit)")
	fs.BoolVar(&o.dryRun, "dry-run", false, "say what would move, changing nothing")
}

// connectTo connects to the broker at raw, never printing its credentials.
func connectTo(ctx context.Context, raw string) (*acemq.Conn, error) {
	conn, err := acemq.Connect(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("acemq-gen: cannot connect to %s: %w", acemq.RedactURL(raw), err)
	}
	return conn, nil
}

// badURLFlag returns the usage error of the first of flags (name, value,
// name, value…) whose URL acemq.CheckURL refuses (a password with an
// unencoded reserved character), naming the flag and never the URL; ""
// when every one is usable. Every URL the commands print goes through
// acemq.RedactURL.
func badURLFlag(flags ...string) string {
	for i := 0; i+1 < len(flags); i += 2 {
		if err := acemq.CheckURL(flags[i+1]); err != nil {
			return flags[i] + ": " + unprefixed(err)
		}
	}
	return ""
}

// peeked is one message read off a queue and left there.
type peeked struct {
	d   acemq.Delivery
	env acemq.Envelope
}

// peek reads every ready message of queue, in order, and returns them all
// to where they were (a hold, closed at the end).
func peek(ctx context.Context, conn *acemq.Conn, queue string) ([]peeked, error) {
	n, err := conn.MessageCount(ctx, queue)
	if err != nil {
		return nil, err
	}
	held, err := conn.Hold(ctx, queue)
	if err != nil {
		return nil, err
	}
	defer held.Close()
	var out []peeked
	for range n {
		d, ok, err := held.Next(ctx)
		if err != nil {
			return out, err
		}
		if !ok {
			break
		}
		out = append(out, peeked{d: d, env: acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)})
	}
	return out, nil
}

// dlqList prints every dead-letter and parked queue the contracts imply.
func dlqList(ctx context.Context, o dlqOptions, stdout io.Writer) error {
	entries, err := ops.ReadCatalog(o.paths)
	if err != nil {
		return err
	}
	queues, err := ops.ConsumedQueues(entries, o.services)
	if err != nil {
		return err
	}
	conn, err := connectTo(ctx, o.url)
	if err != nil {
		return err
	}
	defer conn.Close()
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	defer tw.Flush()
	for _, c := range queues {
		for _, q := range []string{acemq.DeadLetterQueue(c.Queue), acemq.ParkedQueue(c.Queue)} {
			if err := listQueue(ctx, conn, c, q, tw); err != nil {
				return err
			}
		}
	}
	return nil
}

// group is the messages of one type and reason on one queue.
type group struct {
	typ, reason        string
	count              int
	oldest             time.Time
	minTries, maxTries int
}

func listQueue(ctx context.Context, conn *acemq.Conn, c ops.Consumed, queue string, w io.Writer) error {
	exists, err := conn.QueueExists(ctx, queue)
	if err != nil {
		return err
	}
	if !exists {
		fmt.Fprintf(w, "%s\tnot declared\n", queue)
		return nil
	}
	msgs, err := peek(ctx, conn, queue)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s\t%d messages\n", queue, len(msgs))
	for _, g := range groups(msgs) {
		fmt.Fprintf(w, "  %s\t%s\t%d messages, first seen %s, attempts %s\n", typeLabel(c, g.typ), reasonLabel(g.reason),
			g.count, g.oldest.UTC().Format(time.RFC3339), tries(g.minTries, g.maxTries))
	}
	return nil
}

// groups groups msgs by type and reason, oldest group first.
func groups(msgs []peeked) []group {
	var gs []group
	for _, m := range msgs {
		i := slices.IndexFunc(gs, func(g group) bool { return g.typ == m.env.Type && g.reason == m.env.Error })
		if i < 0 {
			gs = append(gs, group{typ: m.env.Type, reason: m.env.Error, oldest: m.env.FirstSeen,
				minTries: m.env.Attempt, maxTries: m.env.Attempt})
			i = len(gs) - 1
		}
		g := &gs[i]
		g.count++
		if m.env.FirstSeen.Before(g.oldest) {
			g.oldest = m.env.FirstSeen
		}
		g.minTries, g.maxTries = min(g.minTries, m.env.Attempt), max(g.maxTries, m.env.Attempt)
	}
	slices.SortStableFunc(gs, func(a, b group) int { return a.oldest.Compare(b.oldest) })
	return gs
}

func typeLabel(c ops.Consumed, typ string) string {
	if e, ok := c.EntryFor(typ); ok {
		return fmt.Sprintf("%s %s (%s)", e.Kind, e.Name, typ)
	}
	return fmt.Sprintf("%s (no contract describes it)", typ)
}

func reasonLabel(reason string) string {
	if reason == "" {
		return "(no reason)"
	}
	return fmt.Sprintf("%q", reason)
}

func tries(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

// sourceFor is the consumed queue of a dead-letter or parked queue, or an
// error naming what the contracts do describe.
func sourceFor(entries []generator.Entry, queue string) (ops.Consumed, error) {
	c, ok := ops.SourceOf(entries, queue)
	if !ok {
		return c, errors.New("acemq-gen: no contract describes queue " + fmt.Sprintf("%q", queue) +
			"; name a command's, an RPC's or a service's event queue, or its .dlq or .parked")
	}
	return c, nil
}
