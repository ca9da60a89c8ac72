package rabbitmq

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// blockableQueue connects to a fault node of the test's own, recording its
// recovery events in ev, and declares on it a classic queue named after name
// (c deletes it); conn is closed at cleanup.
func blockableQueue(t *testing.T, name string) (port string, ev *events, c *cleaner, conn *acemq.Conn, q string) {
	t.Helper()
	url, port := faultNode(t)
	ev, c = newEvents(), newCleanerAt(t, url)
	conn, err := acemq.Connect(ctxT(t), url, OnRecovery(ev.record), testDelay)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	q = c.queue(unique(name))
	if err := conn.DeclareQueue(ctxT(t), q, acemq.OfType(acemq.QueueClassic)); err != nil {
		t.Fatal(err)
	}
	return port, ev, c, conn, q
}

// blockNode raises a memory alarm on the fault node and lifts it at cleanup.
func blockNode(t *testing.T, port string) {
	t.Helper()
	t.Cleanup(func() { _, _ = runCtl(port, "set_vm_memory_high_watermark", "0.4") })
	rabbitmqctl(t, port, "set_vm_memory_high_watermark", "0.0001")
}

// publishUntilPaused publishes with short deadlines until one is paused;
// the broker blocks a connection once it publishes during an alarm (the
// publish written before the block fails as outcome unknown, and is passed).
func publishUntilPaused(t *testing.T, pub *acemq.Publisher[order]) error {
	t.Helper()
	for i := range 50 {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := pub.Send(ctx, order{ID: i})
		cancel()
		if err != nil && !errors.Is(err, acemq.ErrOutcomeUnknown) {
			return err
		}
	}
	t.Fatal("50 publishes during a memory alarm all succeeded; the broker never blocked the connection")
	return nil
}

func TestBlockedConnectionPausesPublishesAndHealthSaysWhyThenResumes(t *testing.T) {
	port, ev, c, conn, q := blockableQueue(t, "blocked")
	pub := acemq.NewPublisher[order](conn, "", q)
	blockNode(t, port)
	err := publishUntilPaused(t, pub)
	if !acemq.IsBlocked(err) || !errors.Is(err, context.DeadlineExceeded) ||
		!strings.Contains(err.Error(), "publishing is paused because the broker blocked this connection (") {
		t.Fatalf("publish during the alarm: %v, want a paused publish (IsBlocked) that ended with its ctx", err)
	}
	blocked := ev.waitFor(t, RecoveryBlocked)
	assertHealthBlocked(t, conn, blocked.Reason)
	assertDeclareWaitsOutTheBlock(t, conn, c)

	resumed := make(chan error, 1)
	go func() { resumed <- pub.Send(ctxT(t), order{ID: 1000}) }()
	rabbitmqctl(t, port, "set_vm_memory_high_watermark", "0.4")
	ev.waitFor(t, RecoveryUnblocked)
	if err := <-resumed; err != nil {
		t.Fatalf("a publish waiting on the block: %v, want it sent once the block lifted", err)
	}
	if r := conn.Health(ctxT(t)); r.Status != acemq.HealthUp || r.Parts["blocked"] != false {
		t.Fatalf("Health after the block lifted = %+v, want up and not blocked", r)
	}
}

// assertDeclareWaitsOutTheBlock checks a declaration on the blocked
// connection (which the broker would not answer) ends with its ctx, saying why.
func assertDeclareWaitsOutTheBlock(t *testing.T, conn *acemq.Conn, c *cleaner) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := conn.DeclareQueue(ctx, c.queue(unique("while-blocked")), acemq.OfType(acemq.QueueClassic))
	if !acemq.IsBlocked(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("declare while blocked: %v, want a blocked error that ended with its ctx", err)
	}
}

// assertHealthBlocked checks Health answers at once, up, with the reason.
func assertHealthBlocked(t *testing.T, conn *acemq.Conn, reason string) {
	t.Helper()
	if reason == "" {
		t.Fatal("the blocked event carries no reason")
	}
	start := time.Now()
	r := conn.Health(ctxT(t))
	took := time.Since(start)
	want := "the broker has blocked this connection; publishing is paused: " + reason
	if r.Status != acemq.HealthUp || r.Detail != want || r.Parts["blockedReason"] != reason || r.Parts["blocked"] != true {
		t.Fatalf("Health while blocked = %+v, want up with %q", r, want)
	}
	if took > time.Second {
		t.Fatalf("Health took %v while blocked, want an answer within 1 s", took)
	}
	t.Logf("Health answered %q in %v", r.Detail, took)
}

func TestABlockIsForgottenWhenTheConnectionIsReplaced(t *testing.T) {
	port, ev, _, conn, q := blockableQueue(t, "block-forgotten")
	blockNode(t, port)
	_ = publishUntilPaused(t, acemq.NewPublisher[order](conn, "", q))
	ev.waitFor(t, RecoveryBlocked)
	conn.Transport().(*Transport).dropConnection()
	ev.waitFor(t, RecoveryRecovered)
	if blocked, known := conn.Blocked(); blocked || !known {
		t.Fatalf("after reconnecting Blocked() = %v, %v; want a new connection that starts unblocked", blocked, known)
	}
	if r := conn.Health(ctxT(t)); r.Status != acemq.HealthUp || r.Parts["blocked"] != false {
		t.Fatalf("Health on the new connection = %+v, want up and not blocked", r)
	}
}
