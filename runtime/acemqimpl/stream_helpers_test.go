package acemqimpl_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
	_ "github.com/acemq/acemq-gen/runtime/rabbitmq" // amqp://
)

// rec is a stream record's payload.
type rec struct {
	N int `json:"n"`
}

// streamKit is one stream on one transport.
type streamKit struct {
	t    *testing.T
	ctx  context.Context
	url  string
	conn *acemq.Conn
	spec *acemqimpl.StreamSpec[rec]
}

// onEachTransport runs body on memory:// and, with a broker (acemqtest.BrokerURL), on RabbitMQ,
// each with a stream of its own, declared, deleted (with its .dlq and .parked) at the end.
func onEachTransport(t *testing.T, body func(k *streamKit), opts ...acemq.ConnOption) {
	t.Run("memory", func(t *testing.T) {
		body(newStreamKit(t, "memory://"+acemq.NewUUID(), nil, opts...))
	})
	t.Run("rabbitmq", func(t *testing.T) {
		body(newStreamKit(t, acemqtest.BrokerURL(t), nil, opts...))
	})
}

// newStreamKit connects to url and declares a uniquely named stream with
// spec's retention (nil: none).
func newStreamKit(t *testing.T, url string, spec *acemqimpl.StreamSpec[rec], opts ...acemq.ConnOption) *streamKit {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	conn, err := acemq.Connect(ctx, url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if spec == nil {
		spec = &acemqimpl.StreamSpec[rec]{}
	}
	spec.Stream, spec.Codec = "stream-test-"+acemq.NewUUID(), acemqimpl.Static(acemq.JSONCodec{})
	k := &streamKit{t: t, ctx: ctx, url: url, conn: conn, spec: spec}
	t.Cleanup(k.cleanup)
	if err := spec.Apply(ctx, conn); err != nil {
		t.Fatal(err)
	}
	return k
}

// cleanup deletes the stream and its set-aside queues, then closes the connection.
func (k *streamKit) cleanup() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, q := range []string{k.spec.Stream, acemq.DeadLetterQueue(k.spec.Stream), acemq.ParkedQueue(k.spec.Stream)} {
		_ = k.conn.DeleteQueue(ctx, q)
	}
	_ = k.conn.Close()
}

// append appends records with N from..to-1, each confirmed.
func (k *streamKit) append(from, to int) {
	k.t.Helper()
	p := k.spec.Publisher(k.conn)
	for n := from; n < to; n++ {
		if err := p.Send(k.ctx, rec{N: n}); err != nil {
			k.t.Fatalf("append %d: %v", n, err)
		}
	}
}

// got is one record a reader handled.
type got struct {
	offset  int64
	n       int
	attempt int
	at      time.Time
}

func (g got) String() string { return fmt.Sprintf("%d:n%d#%d", g.offset, g.n, g.attempt) }

// read starts a reader from from whose handler reports each record on the
// returned channel and answers with ack (nil: Accept).
func (k *streamKit) read(from acemq.StreamPosition, ack func(m acemq.Message[rec]) acemq.Ack, opts ...acemq.ConsumeOption) (*acemq.Consumer, <-chan got) {
	k.t.Helper()
	ch := make(chan got, 1000)
	c, err := k.spec.Read(k.ctx, k.conn, from, func(_ context.Context, m acemq.Message[rec]) acemq.Ack {
		ch <- got{offset: m.Stream.Offset, n: m.Payload.N, attempt: m.Envelope.Attempt, at: m.Stream.Timestamp}
		if ack != nil {
			return ack(m)
		}
		return acemq.Accept()
	}, opts...)
	if err != nil {
		k.t.Fatal(err)
	}
	k.t.Cleanup(func() { _ = c.Close() })
	return c, ch
}

// take waits for n records, then checks that no further one comes soon.
func take(t *testing.T, ch <-chan got, n int) []got {
	t.Helper()
	var out []got
	for range n {
		select {
		case g := <-ch:
			out = append(out, g)
		case <-time.After(10 * time.Second):
			t.Fatalf("read %v, want %d records", out, n)
		}
	}
	select {
	case g := <-ch:
		t.Fatalf("read %v then %v, want only %d records", out, g, n)
	case <-time.After(300 * time.Millisecond):
	}
	return out
}

// offsets returns the offsets of gs.
func offsets(gs []got) []int64 {
	out := make([]int64, len(gs))
	for i, g := range gs {
		out[i] = g.offset
	}
	return out
}

// pullAll takes every message of queue (a classic set-aside queue).
func (k *streamKit) pullAll(queue string) []acemq.Envelope {
	k.t.Helper()
	var out []acemq.Envelope
	for {
		d, ok, err := k.conn.Pull(k.ctx, queue)
		if err != nil {
			k.t.Fatalf("pull %s: %v", queue, err)
		}
		if !ok {
			return out
		}
		out = append(out, acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID))
	}
}
