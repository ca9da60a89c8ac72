package patterns

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

func TestScheduleLadderOfTypeQuorumDeclaresQuorumRungsAndDelivers(t *testing.T) {
	onScheduleTransports(t, scheduleQuorumVhost, func(t *testing.T, url string) {
		conn := schedConn(t, url, acemq.ScheduleLadderOfType(acemq.QueueQuorum))
		startScheduler(t, conn)
		q, got := destination(t, conn, url)
		s, err := acemq.NewPublisher[reminder](conn, "", q).SendAfter(context.Background(), 1200*time.Millisecond, reminder{N: 9})
		if err != nil {
			t.Fatal(err)
		}
		if err := acemq.CancelScheduled(context.Background(), conn, "quorum-"+s.ID()); err != nil {
			t.Fatalf("a cancellation on a quorum ladder: %v", err)
		}
		t.Cleanup(func() { _ = conn.DeleteQueue(context.Background(), semconv.ScheduleCancelledPrefix+"quorum-"+s.ID()) })
		waitFor(t, 10*time.Second, "the message arrives", func() bool { return len(got.all()) == 1 })
		// A classic declaration of a quorum rung is refused: the ladder is
		// quorum on the broker.
		err = conn.DeclareQueue(context.Background(), semconv.ScheduleRung1s, acemq.OfType(acemq.QueueClassic),
			acemq.QueueArg("x-message-ttl", int64(1000)), acemq.QueueArg("x-dead-letter-exchange", semconv.ScheduleExchange),
			acemq.QueueArg("x-dead-letter-routing-key", semconv.ScheduleDueQueue))
		if err == nil || !strings.Contains(err.Error(), "PRECONDITION_FAILED") {
			t.Errorf("a classic redeclaration of a quorum rung: %v, want PRECONDITION_FAILED", err)
		}
	})
}

func TestScheduleLadderOfTypeRefusesAStream(t *testing.T) {
	_, err := acemq.Connect(context.Background(), "memory://schedule-"+acemq.NewUUID(), acemq.ScheduleLadderOfType(acemq.QueueStream))
	if err == nil || !strings.Contains(err.Error(), "ScheduleLadderOfType") {
		t.Errorf("Connect with a stream ladder: %v", err)
	}
}
