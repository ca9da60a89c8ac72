package patterns

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// replayRig is a source queue and its dead-letter queue, both declared.
type replayRig struct {
	*rig
	conn        *acemq.Conn
	queue, dead string
}

func newReplayRig(t *testing.T, r *rig) *replayRig {
	t.Helper()
	conn := r.conn()
	q := r.name("replay")
	for _, n := range []string{q, acemq.DeadLetterQueue(q)} {
		if err := conn.DeclareQueue(r.ctx(), n, acemq.Transient()); err != nil {
			t.Fatalf("declare %s: %v", n, err)
		}
	}
	return &replayRig{rig: r, conn: conn, queue: q, dead: acemq.DeadLetterQueue(q)}
}

// deadLetter puts n messages on the dead-letter queue as the engine leaves
// them: attempt 5, an error, ids m0, m1, ….
func (rr *replayRig) deadLetter(n int) {
	rr.t.Helper()
	for i := range n {
		env, _ := acemq.NewEnvelope("order.placed")
		env.ID, env.Attempt, env.Error = fmt.Sprintf("m%d", i), 5, "boom"
		env.Headers = map[string]any{"x-tenant": fmt.Sprintf("t%d", i%2)}
		out := driver.Outbound{Body: []byte(fmt.Sprintf(`{"n":%d}`, i)), ContentType: "application/json",
			MessageID: env.ID, Headers: env.ToWire(), Persistent: true, Mandatory: true}
		if _, err := rr.conn.PublishRaw(rr.ctx(), "", rr.dead, out); err != nil {
			rr.t.Fatal(err)
		}
	}
	eventually(rr.t, "the dead letters are ready", func() bool { return count(rr.t, rr.conn, rr.dead) == n })
}

// drain pulls every message of queue, in order.
func (rr *replayRig) drain(queue string) []driver.Delivery {
	rr.t.Helper()
	var got []driver.Delivery
	for {
		d, ok, err := rr.conn.Pull(rr.ctx(), queue)
		if err != nil {
			rr.t.Fatal(err)
		}
		if !ok {
			return got
		}
		got = append(got, d)
	}
}

func ids(ds []driver.Delivery) []string {
	var out []string
	for _, d := range ds {
		out = append(out, acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID).ID)
	}
	return out
}

func TestReplayMovesEveryMessageStampedAndOnAttemptOne(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		rr := newReplayRig(t, r)
		rr.deadLetter(3)
		before := time.Now().Add(-time.Second)

		res, err := Replay(r.ctx(), rr.conn, ReplayFrom{Queue: rr.dead, RoutingKey: rr.queue})
		if err != nil {
			t.Fatal(err)
		}
		if res.Moved != 3 || res.Skipped != 0 || res.String() != "moved 3" {
			t.Errorf("result %+v (%s); want 3 moved, none skipped", res, res)
		}
		eventually(t, "the copies are ready", func() bool { return count(t, rr.conn, rr.queue) == 3 })
		got := rr.drain(rr.queue)
		if want := []string{"m0", "m1", "m2"}; !slices.Equal(ids(got), want) {
			t.Errorf("replayed %v; want %v in order", ids(got), want)
		}
		for _, d := range got {
			env := acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)
			if env.Attempt != 1 || env.Error != "" {
				t.Errorf("%s: attempt %d, error %q; want attempt 1 and no error", env.ID, env.Attempt, env.Error)
			}
			if env.Headers[HeaderReplayedFrom] != rr.dead || replayCount(d.Headers) != 1 {
				t.Errorf("%s: stamps %v; want replayed from %s, count 1", env.ID, env.Headers, rr.dead)
			}
			at, err := time.Parse(time.RFC3339, fmt.Sprint(env.Headers[HeaderReplayedAt]))
			if err != nil || at.Before(before) {
				t.Errorf("%s: %s = %v (%v); want an RFC 3339 time of now", env.ID, HeaderReplayedAt, env.Headers[HeaderReplayedAt], err)
			}
			if env.Headers["x-tenant"] == nil {
				t.Errorf("%s lost its application header: %v", env.ID, env.Headers)
			}
		}
		if n := count(t, rr.conn, rr.dead); n != 0 {
			t.Errorf("%d left on the dead-letter queue; want 0", n)
		}
	})
}

func TestReplayKeepAttemptsKeepsTheAttemptAndTheError(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		rr := newReplayRig(t, r)
		rr.deadLetter(1)
		if _, err := Replay(r.ctx(), rr.conn, ReplayFrom{Queue: rr.dead, RoutingKey: rr.queue, KeepAttempts: true}); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the copy is ready", func() bool { return count(t, rr.conn, rr.queue) == 1 })
		d := rr.drain(rr.queue)[0]
		env := acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)
		if env.Attempt != 5 || env.Error != "boom" {
			t.Errorf("attempt %d, error %q; KeepAttempts should keep 5 and \"boom\"", env.Attempt, env.Error)
		}
	})
}

func TestReplayLeavesDeclinedMessagesWhereTheyWereInOrder(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		rr := newReplayRig(t, r)
		rr.deadLetter(6)
		res, err := Replay(r.ctx(), rr.conn, ReplayFrom{Queue: rr.dead, RoutingKey: rr.queue,
			Filter: func(env acemq.Envelope, _ []byte) bool { return env.Headers["x-tenant"] == "t1" }})
		if err != nil {
			t.Fatal(err)
		}
		if res.Moved != 3 || res.Declined != 3 || res.Reason != ReplaySkippedByFilter {
			t.Errorf("result %+v; want 3 moved, 3 declined by the filter", res)
		}
		if s := res.String(); s != "moved 3, skipped 3 (declined by the filter)" {
			t.Errorf("String() = %q", s)
		}
		eventually(t, "the declined messages are back", func() bool { return count(t, rr.conn, rr.dead) == 3 })
		if got, want := ids(rr.drain(rr.dead)), []string{"m0", "m2", "m4"}; !slices.Equal(got, want) {
			t.Errorf("left %v on the dead-letter queue; want %v, in order", got, want)
		}
		if got, want := ids(rr.drain(rr.queue)), []string{"m1", "m3", "m5"}; !slices.Equal(got, want) {
			t.Errorf("moved %v; want %v", got, want)
		}
	})
}

func TestReplaySaysHowManyTheLimitLeft(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		rr := newReplayRig(t, r)
		rr.deadLetter(5)
		res, err := Replay(r.ctx(), rr.conn, ReplayFrom{Queue: rr.dead, RoutingKey: rr.queue, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if s := res.String(); res.Moved != 2 || res.PastLimit != 3 || s != "moved 2, skipped 3 (limit)" {
			t.Errorf("result %+v (%s); want moved 2, skipped 3 (limit)", res, s)
		}
		if got, want := ids(rr.drain(rr.dead)), []string{"m2", "m3", "m4"}; !slices.Equal(got, want) {
			t.Errorf("left %v; want %v", got, want)
		}
	})
}

func TestReplayIntoNowhereKeepsTheMessage(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		rr := newReplayRig(t, r)
		rr.deadLetter(2)
		res, err := Replay(r.ctx(), rr.conn, ReplayFrom{Queue: rr.dead, RoutingKey: rr.queue + ".nowhere"})
		var failed *acemq.PublishFailedError
		if !errors.As(err, &failed) || !failed.Unroutable {
			t.Errorf("replaying into nowhere returned %v; want an unroutable PublishFailedError", err)
		}
		if res.Moved != 0 {
			t.Errorf("moved %d into nowhere", res.Moved)
		}
		eventually(t, "both messages are back", func() bool { return count(t, rr.conn, rr.dead) == 2 })
		if got, want := ids(rr.drain(rr.dead)), []string{"m0", "m1"}; !slices.Equal(got, want) {
			t.Errorf("left %v; want %v in order", got, want)
		}
	})
}

func TestAnInterruptedReplayLeavesEveryMessageInExactlyOnePlace(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		rr := newReplayRig(t, r)
		const total = 20
		rr.deadLetter(total)
		ctx, cancel := context.WithCancel(r.ctx())
		defer cancel()
		var seen atomic.Int32
		res, err := Replay(ctx, rr.conn, ReplayFrom{Queue: rr.dead, RoutingKey: rr.queue,
			Filter: func(acemq.Envelope, []byte) bool {
				if seen.Add(1) == 7 {
					cancel() // mid-way, as an operator's ^C would
				}
				return true
			}})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v; want context.Canceled", err)
		}
		if res.Moved == 0 || res.Moved == total {
			t.Fatalf("moved %d of %d; the test wants it interrupted mid-way", res.Moved, total)
		}
		eventually(t, "every message settles", func() bool {
			return count(t, rr.conn, rr.dead)+count(t, rr.conn, rr.queue) == total
		})
		moved, left := ids(rr.drain(rr.queue)), ids(rr.drain(rr.dead))
		if len(moved) != res.Moved {
			t.Errorf("%d copies on %s; the result says %d moved", len(moved), rr.queue, res.Moved)
		}
		all := slices.Sorted(slices.Values(append(moved, left...)))
		if len(slices.Compact(all)) != total {
			t.Errorf("moved %v, left %v: a message is lost or doubled", moved, left)
		}
	})
}

func TestReplayCountGrowsOnEveryReplay(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		rr := newReplayRig(t, r)
		rr.deadLetter(1)
		for _, hop := range [][2]string{{rr.dead, rr.queue}, {rr.queue, rr.dead}} {
			if _, err := Replay(r.ctx(), rr.conn, ReplayFrom{Queue: hop[0], RoutingKey: hop[1]}); err != nil {
				t.Fatal(err)
			}
			eventually(t, "the copy is ready", func() bool { return count(t, rr.conn, hop[1]) == 1 })
		}
		if n := replayCount(rr.drain(rr.dead)[0].Headers); n != 2 {
			t.Errorf("%s = %d after two replays; want 2", HeaderReplayCount, n)
		}
	})
}

func TestReplayRefusesWhatItCannotDo(t *testing.T) {
	conn, err := acemq.Connect(context.Background(), "memory://replay-refusals?confirms=off")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, tc := range []struct {
		from ReplayFrom
		want string
	}{
		{ReplayFrom{RoutingKey: "q"}, "acemq: Replay needs the queue to read (ReplayFrom.Queue)"},
		{ReplayFrom{Queue: "q.dlq"}, "acemq: Replay needs an exchange or a routing key to send the messages to"},
		{ReplayFrom{Queue: "q.dlq", RoutingKey: "q", Limit: -1}, "acemq: the replay limit must not be negative, got -1"},
		{ReplayFrom{Queue: "q.dlq", RoutingKey: "q"}, "acemq: Replay needs publisher confirms, because it acks each message only after its copy is confirmed"},
	} {
		if _, err := Replay(context.Background(), conn, tc.from); err == nil || err.Error() != tc.want {
			t.Errorf("Replay(%+v) = %v; want %q", tc.from, err, tc.want)
		}
	}
}
