package rabbitmq

import (
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// TestRecoveryDoesNotStallOnAClassicQueueWhoseNodeIsDownAndRedeclaresItLater:
// a classic queue (a {queue}.dlq as the family declares it) lives on the
// node that declared it. When that node is SIGKILLed, recovery on a
// surviving node redeclares everything else, goes live (publishes to a
// quorum queue are confirmed), reports the refused queue in its recovered
// event, and keeps retrying it in the background until the node is back.
func TestRecoveryDoesNotStallOnAClassicQueueWhoseNodeIsDownAndRedeclaresItLater(t *testing.T) {
	cl := clusterNodes(t)
	if cl == nil {
		return
	}
	ctx, ev, tr, victim, clean := cl.dial(t)
	q := clean.queue(unique("cluster-setaside"))
	dlq := clean.queue(q + ".dlq")
	if err := tr.DeclareQueue(ctx, dlq, driver.QueueSpec{Durable: true}); err != nil { // classic, on victim
		t.Fatal(err)
	}
	if err := tr.DeclareQueue(ctx, q, driver.QueueSpec{Durable: true, Args: map[string]any{"x-queue-type": "quorum"}}); err != nil {
		t.Fatal(err)
	}
	cl.kill(t, victim)
	ev.waitFor(t, RecoveryLost)
	rec := waitForEvent(t, ev, RecoveryRecovered, time.Minute)
	if rec.Err == nil || !strings.Contains(rec.Err.Error(), dlq) {
		t.Fatalf("recovered event %+v, want it to name the refused %s", rec, dlq)
	}
	if n := tr.PendingRedeclares(); n != 1 {
		t.Fatalf("PendingRedeclares = %d, want 1 (the classic queue on the dead node)", n)
	}
	publishConfirmed(ctx, t, tr, q, "live", 3)
	if out, err := cl.script("revive", victim); err != nil {
		t.Fatalf("revive %s: %v\n%s", victim, err, out)
	}
	deadline := time.Now().Add(time.Minute)
	for tr.PendingRedeclares() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the classic queue was not redeclared within a minute of its node's return")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitForEvent waits for an event of kind for up to d.
func waitForEvent(t *testing.T, e *events, kind string, d time.Duration) RecoveryEvent {
	t.Helper()
	return e.waitWithin(t, kind, d, d.String())
}
