package dlq

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// route is one destination of a redrive and the entries that go there.
type route struct {
	exchange, key string
	entries       []generator.Entry
}

// routesOf groups src's entries by where their messages belong.
func routesOf(src ops.Consumed) []route {
	var rs []route
	for _, e := range src.Entries {
		x, k := src.Destination(e)
		found := false
		for i := range rs {
			if rs[i].exchange == x && rs[i].key == k {
				rs[i].entries, found = append(rs[i].entries, e), true
			}
		}
		if !found {
			rs = append(rs, route{exchange: x, key: k, entries: []generator.Entry{e}})
		}
	}
	return rs
}

func (r route) has(typ string) (generator.Entry, bool) {
	for _, e := range r.entries {
		if e.Type == typ {
			return e, true
		}
	}
	return generator.Entry{}, false
}

func (r route) String() string {
	if r.exchange == "" {
		return fmt.Sprintf("queue %s", r.key)
	}
	return fmt.Sprintf("exchange %s with key %s", r.exchange, r.key)
}

// matcher is the redrive's own filter: --type, --reason and --where.
type matcher struct {
	o     Options
	dec   *ops.Decoders
	where [][2]string
}

func newMatcher(o Options, dec *ops.Decoders) (*matcher, error) {
	m := &matcher{o: o, dec: dec}
	for _, w := range o.Where {
		field, value, ok := strings.Cut(w, "=")
		if !ok || field == "" {
			return nil, fmt.Errorf("acemq-gen: --where %q is not field=value", w)
		}
		m.where = append(m.where, [2]string{field, value})
	}
	return m, nil
}

// matches reports whether a message of e passes the flags.
func (m *matcher) matches(e generator.Entry, env acemq.Envelope, contentType string, body []byte) bool {
	if m.o.Type != "" && m.o.Type != e.Name && m.o.Type != e.Type {
		return false
	}
	if m.o.Reason != "" && !strings.Contains(env.Error, m.o.Reason) {
		return false
	}
	if len(m.where) == 0 {
		return true
	}
	payload, err := m.dec.Decode(e, contentType, body)
	if err != nil {
		return false
	}
	for _, w := range m.where {
		v, ok := fieldAt(payload, w[0])
		if !ok || fmt.Sprint(v) != w[1] {
			return false
		}
	}
	return true
}

// fieldAt is the value at a dotted path of a decoded payload.
func fieldAt(v any, path string) (any, bool) {
	for _, part := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[part]; !ok {
			return nil, false
		}
	}
	return v, true
}

// Redrive moves o.Queue's matching messages to where the contracts say
// they belong, one patterns.Replay per destination.
func Redrive(ctx context.Context, o Options, stdout io.Writer) error {
	return run(ctx, o, func(entries []generator.Entry) (func(*acemq.Conn) error, error) {
		src, m, err := redriveFilter(o, entries)
		return func(conn *acemq.Conn) error {
			if o.DryRun {
				return dryRun(ctx, conn, o, src, m, stdout)
			}
			return redrive(ctx, conn, o, src, m, stdout)
		}, err
	})
}

// redriveFilter is the queue o.Queue belongs to and the filter of o's flags.
func redriveFilter(o Options, entries []generator.Entry) (ops.Consumed, *matcher, error) {
	src, err := sourceFor(entries, o.Queue)
	if err != nil {
		return src, nil, err
	}
	dec, err := ops.NewDecoders(o.Registry)
	if err != nil {
		return src, nil, err
	}
	m, err := newMatcher(o, dec)
	return src, m, err
}

func redrive(ctx context.Context, conn *acemq.Conn, o Options, src ops.Consumed, m *matcher, stdout io.Writer) error {
	moved := 0
	pace := newPacer(o.Rate)
	for _, r := range routesOf(src) {
		if o.Limit > 0 && moved >= o.Limit {
			break
		}
		from := patterns.ReplayFrom{Queue: o.Queue, Exchange: r.exchange, RoutingKey: r.key,
			Filter: func(env acemq.Envelope, body []byte) bool {
				e, ok := r.has(env.Type)
				if !ok || !m.matches(e, env, "", body) {
					return false
				}
				pace.wait(ctx)
				return true
			}}
		if o.Limit > 0 {
			from.Limit = o.Limit - moved
		}
		res, err := patterns.Replay(ctx, conn, from)
		moved += res.Moved
		fmt.Fprintf(stdout, "%s: moved %d to %s\n", o.Queue, res.Moved, r)
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "moved %d in all\n", moved)
	return nil
}

// dryRun says what redrive would move, changing nothing.
func dryRun(ctx context.Context, conn *acemq.Conn, o Options, src ops.Consumed, m *matcher, stdout io.Writer) error {
	msgs, err := Peek(ctx, conn, o.Queue)
	if err != nil {
		return err
	}
	would := 0
	for _, r := range routesOf(src) {
		n := 0
		for _, p := range msgs {
			if o.Limit > 0 && would+n >= o.Limit {
				break
			}
			if e, ok := r.has(p.Envelope.Type); ok && m.matches(e, p.Envelope, p.ContentType(), p.Delivery.Body) {
				n++
				fmt.Fprintf(stdout, "would move %s (%s, attempt %d, %s) to %s\n", p.Envelope.ID, e.Name, p.Envelope.Attempt, reasonLabel(p.Envelope.Error), r)
			}
		}
		would += n
	}
	fmt.Fprintf(stdout, "dry run: would move %d of %d; nothing changed\n", would, len(msgs))
	return nil
}

// pacer spaces moves at most rate a second apart (0: no pacing).
type pacer struct {
	every time.Duration
	next  time.Time
}

func newPacer(rate float64) *pacer {
	if rate <= 0 {
		return &pacer{}
	}
	return &pacer{every: time.Duration(float64(time.Second) / rate)}
}

func (p *pacer) wait(ctx context.Context) {
	if p.every == 0 {
		return
	}
	if d := time.Until(p.next); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	p.next = time.Now().Add(p.every)
}
