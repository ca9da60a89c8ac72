package rabbitmq

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// headerRun is a consumer of a fresh queue on the broker that records the
// Go type of header "x-h" on each message it handles.
type headerRun struct {
	conn *acemq.Conn
	q    string
	mu   sync.Mutex
	seen []string
}

func startHeaderRun(t *testing.T, rule acemq.HeaderRule) *headerRun {
	t.Helper()
	url, c := brokerURL(t), newCleaner(t)
	conn, err := acemq.Connect(ctxT(t), url, testDelay)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	r := &headerRun{conn: conn, q: c.queue(unique("headers"))}
	c.queue(acemq.DeadLetterQueue(r.q))
	c.queue(acemq.ParkedQueue(r.q))
	if err := conn.DeclareQueue(ctxT(t), r.q); err != nil {
		t.Fatal(err)
	}
	consumer, err := acemq.Consume(ctxT(t), conn, r.q, r.handle, acemqimpl.ConsumeHeaderRules(rule))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = consumer.Close() })
	return r
}

func (r *headerRun) handle(_ context.Context, m acemq.Message[order]) acemq.Ack {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, fmt.Sprintf("%T", m.Envelope.Headers["x-h"]))
	return acemq.Accept()
}

func (r *headerRun) handled() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.seen)
}

// send publishes with header x-h = v through a publisher with no rules.
func (r *headerRun) send(t *testing.T, id int, v any) {
	t.Helper()
	if err := acemq.NewPublisher[order](r.conn, "", r.q).Send(ctxT(t), order{ID: id}, acemq.Header("x-h", v)); err != nil {
		t.Fatal(err)
	}
}

// deadLettered waits for the next message of the queue's dead-letter queue.
func (r *headerRun) deadLettered(t *testing.T) acemq.Envelope {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		d, ok, err := r.conn.Pull(ctxT(t), acemq.DeadLetterQueue(r.q))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			return acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("nothing reached %s", acemq.DeadLetterQueue(r.q))
	return acemq.Envelope{}
}

func TestDeclaredHeaderTypeEnforcedOnConsume(t *testing.T) {
	r := startHeaderRun(t, acemq.HeaderRule{Name: "x-h", Type: acemq.StringHeader})
	r.send(t, 1, 42)
	env := r.deadLettered(t)
	if want := `the message's header "x-h" must be a string; it is an int32`; env.Error != want {
		t.Fatalf("dead-lettered with %q, want %q", env.Error, want)
	}
	r.send(t, 2, "acme")
	waitHandled(t, r, 1)
}

func TestHeaderIntegerWidthsFollowTheWire(t *testing.T) {
	r := startHeaderRun(t, acemq.HeaderRule{Name: "x-h", Type: acemq.IntHeader})
	widths := []any{int(7), int8(7), int16(7), int32(7), int64(7), uint(7), uint8(7), uint16(7), uint32(7), uint64(7)}
	for i, v := range widths {
		r.send(t, i, v)
	}
	got := waitHandled(t, r, len(widths))
	if !slices.Contains(got, "int8") || !slices.Contains(got, "int64") {
		t.Errorf("the broker delivered the widths as %v, want several widths (int8, int64, …)", got)
	}
	r.send(t, 99, int64(1)<<40)
	env := r.deadLettered(t)
	if want := `the message's header "x-h" must be an int; it is an int64 out of an int's range (1099511627776)`; env.Error != want {
		t.Fatalf("dead-lettered with %q, want %q", env.Error, want)
	}
}

// waitHandled waits until r handled n messages and returns their header types.
func waitHandled(t *testing.T, r *headerRun, n int) []string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for len(r.handled()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("handled %d of %d messages (header types %v)", len(r.handled()), n, r.handled())
		}
		time.Sleep(5 * time.Millisecond)
	}
	return r.handled()
}
