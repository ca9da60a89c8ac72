package patterns

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// TestReplyToCommandQueueIsRefused: a request whose reply-to names a command
// queue of the responder's own service (a queue a consumer of its connection
// reads) no longer makes the responder drop its reply there, where the
// command consumer would take it for a command: the request is dead-lettered
// with the reason, counted unanswerable, its handler not run. The family's
// reply addresses are still answered: direct reply-to (a Client), a
// requester's named reply queue, and a raw request naming acemq-reply-<id>.
func TestReplyToCommandQueueIsRefused(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn := r.conn()
		q, commands := r.queue(conn, "rpc"), r.queue(conn, "commands")
		var commandsHandled, handled atomic.Int64
		cmd, err := acemq.Consume(r.ctx(), conn, commands, func(context.Context, acemq.Message[map[string]any]) acemq.Ack {
			commandsHandled.Add(1)
			return acemq.Accept()
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Close() })
		resp := serve(t, conn, q, func(ctx context.Context, m acemq.Message[int]) (int, error) {
			handled.Add(1)
			return double(ctx, m)
		})
		out := driver.Outbound{MessageID: "hostile-1", ContentType: "application/json", Body: []byte("4"),
			ReplyTo: commands, CorrelationID: "hostile-corr"}
		if _, err := conn.PublishRaw(r.ctx(), "", q, out); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the hostile request counted unanswerable", func() bool { return resp.Unanswerable() == 1 })
		d, ok, err := conn.Pull(r.ctx(), acemq.DeadLetterQueue(q))
		if err != nil || !ok {
			t.Fatalf("the refused request is not in %s.dlq: %v %v", q, ok, err)
		}
		if reason, _ := headerString(d.Headers, semconv.HeaderError); !strings.Contains(reason, "refuses") || !strings.Contains(reason, commands) {
			t.Errorf("dead-letter reason %q does not say the reply address was refused", reason)
		}
		time.Sleep(100 * time.Millisecond)
		if n := commandsHandled.Load(); n != 0 || handled.Load() != 0 || resp.Answered() != 0 {
			t.Fatalf("command consumer handled %d, responder handler ran %d times, answered %d; want none",
				n, handled.Load(), resp.Answered())
		}
		familyAddressesStillAnswered(t, r, conn, q)
	})
}

// familyAddressesStillAnswered checks direct reply-to, a named reply queue
// and an acemq-reply-<id> queue are answered by the responder on q.
func familyAddressesStillAnswered(t *testing.T, r *rig, conn *acemq.Conn, q string) {
	t.Helper()
	client := NewClient[int, int](conn, "", q)
	defer client.Close()
	named := requester[int, int](t, conn, q, ReplyTo(r.name("family-replies")))
	for what, do := range map[string]func(context.Context, int, ...acemq.EnvelopeOption) (int, error){"direct reply-to": client.Do, "named": named.Do} {
		if got, err := do(r.ctx(), 5); err != nil || got != 10 {
			t.Errorf("%s: got %d, %v; want 10", what, got, err)
		}
	}
	replies := "acemq-reply-" + acemq.NewUUID()
	r.t.Cleanup(func() {
		if r.broker {
			deleteQueues(r.t, r.url, replies)
		}
	})
	if err := conn.DeclareQueue(r.ctx(), replies, acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	out := driver.Outbound{MessageID: "raw-1", ContentType: "application/json", Body: []byte("7"), ReplyTo: replies, CorrelationID: "raw-corr"}
	if _, err := conn.PublishRaw(r.ctx(), "", q, out); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the reply in "+replies, func() bool { return count(t, conn, replies) == 1 })
}

// TestReplyToAnotherServicesCommandQueueIsParked: when the command queue a
// hostile request names as its reply-to belongs to another service (a
// consumer on another connection, which the responder cannot see), the
// reply reaches it, but the command consumer, expecting its message's type
// (acemq.ExpectMessageTypes, as generated consumers do), parks it without
// running its handler.
func TestReplyToAnotherServicesCommandQueueIsParked(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn, other := r.conn(), r.conn()
		q, commands := r.queue(conn, "rpc"), r.queue(other, "commands")
		var commandsHandled atomic.Int64
		cmd, err := acemq.Consume(r.ctx(), other, commands, func(context.Context, acemq.Message[map[string]any]) acemq.Ack {
			commandsHandled.Add(1)
			return acemq.Accept()
		}, acemq.ExpectMessageTypes("cancel.order"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Close() })
		resp := serve(t, conn, q, double)
		out := driver.Outbound{MessageID: "hostile-2", ContentType: "application/json", Body: []byte("4"), ReplyTo: commands}
		if _, err := conn.PublishRaw(r.ctx(), "", q, out); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the reply parked in "+commands+".parked", func() bool { return count(t, other, acemq.ParkedQueue(commands)) == 1 })
		if n := commandsHandled.Load(); n != 0 || resp.Answered() != 1 {
			t.Fatalf("command handler ran %d times (want 0); answered %d (want 1)", n, resp.Answered())
		}
	})
}
