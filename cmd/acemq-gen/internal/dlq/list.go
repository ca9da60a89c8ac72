package dlq

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// Peeked is one message read off a queue and left there.
type Peeked struct {
	Delivery driver.Delivery // as the broker delivered it
	Envelope acemq.Envelope  // read from its headers
}

// ContentType is the content type of the message's payload: the delivery's,
// or, for a message set aside from the schedule ladder (whose body travels
// as application/octet-stream), the one it is delivered with
// (x-schedule-content-type).
func (p Peeked) ContentType() string {
	if ct, ok := p.Delivery.Headers[semconv.HeaderScheduleContentType].(string); ok && ct != "" {
		return ct
	}
	return p.Delivery.ContentType
}

// Peek reads every ready message of queue, in order, and returns them all
// to where they were (a hold, closed at the end).
func Peek(ctx context.Context, conn *acemq.Conn, queue string) ([]Peeked, error) {
	n, err := conn.MessageCount(ctx, queue)
	if err != nil {
		return nil, err
	}
	held, err := conn.Hold(ctx, queue)
	if err != nil {
		return nil, err
	}
	defer held.Close()
	var out []Peeked
	for range n {
		d, ok, err := held.Next(ctx)
		if err != nil {
			return out, err
		}
		if !ok {
			break
		}
		out = append(out, Peeked{Delivery: d, Envelope: acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)})
	}
	return out, nil
}

// List prints every dead-letter and parked queue the contracts imply.
func List(ctx context.Context, o Options, stdout io.Writer) error {
	return run(ctx, o, func(entries []generator.Entry) (func(*acemq.Conn) error, error) {
		queues, err := ops.ConsumedQueues(entries, o.Services)
		return func(conn *acemq.Conn) error { return listQueues(ctx, conn, queues, stdout) }, err
	})
}

func listQueues(ctx context.Context, conn *acemq.Conn, queues []ops.Consumed, stdout io.Writer) error {
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
	msgs, err := Peek(ctx, conn, queue)
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
func groups(msgs []Peeked) []group {
	var gs []group
	for _, m := range msgs {
		i := slices.IndexFunc(gs, func(g group) bool { return g.typ == m.Envelope.Type && g.reason == m.Envelope.Error })
		if i < 0 {
			gs = append(gs, group{typ: m.Envelope.Type, reason: m.Envelope.Error, oldest: m.Envelope.FirstSeen,
				minTries: m.Envelope.Attempt, maxTries: m.Envelope.Attempt})
			i = len(gs) - 1
		}
		g := &gs[i]
		g.count++
		if m.Envelope.FirstSeen.Before(g.oldest) {
			g.oldest = m.Envelope.FirstSeen
		}
		g.minTries, g.maxTries = min(g.minTries, m.Envelope.Attempt), max(g.maxTries, m.Envelope.Attempt)
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
			"; name a command's, an RPC's or a service's event queue, or a stream, or its .dlq or .parked")
	}
	return c, nil
}
