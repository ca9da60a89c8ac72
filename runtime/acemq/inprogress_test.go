package acemq_test

import (
	"context"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

func TestInProgressAckIsNamedInProgressAndIsNotARetry(t *testing.T) {
	ack := acemq.InProgress(3 * time.Millisecond)
	if ack.String() != "in_progress" || !ack.IsInProgress() || ack.IsRetry() || ack.Err() != nil {
		t.Errorf("InProgress is %q, in progress %v, retry %v, err %v", ack, ack.IsInProgress(), ack.IsRetry(), ack.Err())
	}
	if ack.Delay() != 3*time.Millisecond {
		t.Errorf("delay %s, want 3ms", ack.Delay())
	}
	if acemq.Accept().IsInProgress() || acemq.Retry(nil).IsInProgress() {
		t.Error("only InProgress is in progress")
	}
}

func TestInProgressWithoutADelayWaitsTheDefaultFiveSeconds(t *testing.T) {
	if acemq.DefaultInProgressDelay != 5*time.Second {
		t.Errorf("DefaultInProgressDelay %s, want 5s", acemq.DefaultInProgressDelay)
	}
	if d := acemq.InProgress(0).Delay(); d != acemq.DefaultInProgressDelay {
		t.Errorf("InProgress(0) waits %s", d)
	}
}

func TestInProgressRequeuesWithoutSpendingAnAttemptAndNeverDeadLetters(t *testing.T) {
	m := acemqtest.NewMetrics()
	conn := connect(t, acemq.WithObserver(m))
	declare(t, conn, "orders")
	settled := make(chan acemq.Settlement, 4)
	var attempts recorder[int]
	consume(t, conn, "orders", func(ctx context.Context, msg acemq.Message[Order]) acemq.Ack {
		acemq.OnSettled(ctx, func(s acemq.Settlement) { settled <- s })
		attempts.add(msg.Envelope.Attempt)
		if attempts.len() < 3 {
			return acemq.InProgress(2 * time.Millisecond)
		}
		return acemq.Accept()
	}, acemq.RetryWith(acemq.FixedRetry(1, time.Millisecond)))
	send(t, conn, "orders", Order{ID: "o-1"})
	first, second, last := <-settled, <-settled, <-settled
	for _, s := range []acemq.Settlement{first, second} {
		if s.Action != acemq.ActionInProgress || s.Outcome != semconv.OutcomeInProgress ||
			s.Delay != 2*time.Millisecond || s.Envelope.Attempt != 1 || s.Reason != "" || s.Queue != "orders" {
			t.Errorf("in-progress settlement %+v", s)
		}
	}
	if last.Outcome != semconv.OutcomeAcked || last.Envelope.ID != first.Envelope.ID {
		t.Errorf("the message came back as %+v", last)
	}
	for _, a := range attempts.all() {
		if a != 1 {
			t.Errorf("attempts %v, want every one 1", attempts.all())
		}
	}
	assertNothingSetAside(t, conn, m)
}

// assertNothingSetAside checks that orders' dead-letter and parked queues
// are empty and that the two in-progress settlements were counted as such.
func assertNothingSetAside(t *testing.T, conn *acemq.Conn, m *acemqtest.Metrics) {
	t.Helper()
	if n := count(t, conn, "orders.dlq") + count(t, conn, "orders.parked"); n != 0 {
		t.Errorf("%d messages set aside", n)
	}
	counts := m.Counts()
	inProgress := acemqtest.MetricKey(semconv.MetricConsumeTotal, semconv.Labels{"queue": "orders", "outcome": "in_progress"})
	retried := acemqtest.MetricKey(semconv.MetricRetriedTotal, semconv.Labels{"queue": "orders"})
	if counts[inProgress] != 2 || counts[retried] != 0 {
		t.Errorf("in_progress counted %d, retried %d; counts %v", counts[inProgress], counts[retried], counts)
	}
}

func TestInProgressWaitCutShortByCloseReturnsTheMessageWithItsAttemptUnspent(t *testing.T) {
	conn := ordersConn(t)
	started := make(chan struct{}, 1)
	c := consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		started <- struct{}{}
		return acemq.InProgress(time.Hour)
	})
	send(t, conn, "orders", Order{ID: "o-1"})
	<-started
	if err := c.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	d := awaitMessage(t, conn, "orders")
	if env := acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID); env.Attempt != 1 {
		t.Errorf("the message came back at attempt %d, want 1", env.Attempt)
	}
	if n := count(t, conn, "orders.dlq"); n != 0 {
		t.Errorf("%d messages dead-lettered", n)
	}
}
