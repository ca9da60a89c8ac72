package rabbitmq

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestBrokerRefusalIsCertainNotMaybe(t *testing.T) {
	url := brokerURL(t)
	ctx := ctxT(t)
	conn, err := acemq.Connect(ctx, url, testDelay)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	missing := unique("missing")
	start := time.Now()
	err = acemq.NewPublisher[order](conn, missing, "k").Send(ctx, order{ID: 1})
	took := time.Since(start)
	var ae *amqp.Error
	if !errors.Is(err, acemq.ErrBrokerRefused) || !errors.As(err, &ae) || ae.Code != amqp.NotFound ||
		!strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), missing) {
		t.Fatalf("publish to a missing exchange = %v, want ErrBrokerRefused carrying the broker's 404 and text", err)
	}
	if errors.Is(err, acemq.ErrOutcomeUnknown) || errors.Is(err, ErrConfirmLost) || strings.Contains(err.Error(), "may or may not") {
		t.Fatalf("err = %v, want a certain refusal, not a maybe", err)
	}
	if took > time.Second {
		t.Fatalf("the refusal took %v: it was sent again (NackRetries), want it final at once", took)
	}
}

func TestARefusalNamesOnlyThePublishItAnswers(t *testing.T) {
	cases := []struct {
		err      *amqp.Error
		exchange string
		size     int
		refused  bool
	}{
		{&amqp.Error{Code: amqp.NotFound, Reason: "NOT_FOUND - no exchange 'gone' in vhost '/'"}, "gone", 1, true},
		{&amqp.Error{Code: amqp.NotFound, Reason: "NOT_FOUND - no exchange 'gone' in vhost '/'"}, "here", 1, false},
		{&amqp.Error{Code: amqp.AccessRefused, Reason: "ACCESS_REFUSED - access to exchange 'x' in vhost '/' refused for user 'u'"}, "x", 1, true},
		{&amqp.Error{Code: amqp.PreconditionFailed, Reason: "PRECONDITION_FAILED - message size 2000 is larger than configured max size 1000"}, "", 2000, true},
		{&amqp.Error{Code: amqp.PreconditionFailed, Reason: "PRECONDITION_FAILED - message size 2000 is larger than configured max size 1000"}, "", 20, false},
		{&amqp.Error{Code: amqp.PreconditionFailed, Reason: "PRECONDITION_FAILED - unknown delivery tag 1"}, "", 1, false},
	}
	for _, c := range cases {
		err := refusalOf(c.err, c.exchange, c.size)
		if (err != nil) != c.refused {
			t.Errorf("refusalOf(%q, %q, %d) = %v, want refused %v", c.err.Reason, c.exchange, c.size, err, c.refused)
			continue
		}
		r := resender{t: &Transport{cfg: defaultConfig()}}
		if err != nil && (!errors.Is(err, acemq.ErrBrokerRefused) || r.again(context.Background(), nil, err)) {
			t.Errorf("refusal %v: want ErrBrokerRefused, never sent again", err)
		}
	}
}

// TestPublishWrittenBeforeBlockedIsOutcomeUnknown: the publish written just
// before connection.blocked arrived fails with its ctx as outcome unknown
// (it is delivered once the alarm clears); one that waited for the block to
// lift, never written, is paused (IsBlocked) and never delivered.
func TestPublishWrittenBeforeBlockedIsOutcomeUnknown(t *testing.T) {
	port, ev, _, conn, q := blockableQueue(t, "written-blocked")
	pub := acemq.NewPublisher[order](conn, "", q)
	blockNode(t, port)
	sent, written := publishUntilFailure(t, pub)
	var paused *acemq.PublishingPausedError
	if !errors.Is(written, acemq.ErrOutcomeUnknown) || errors.As(written, &paused) || acemq.IsBlocked(written) ||
		!strings.Contains(written.Error(), "may or may not") || !errors.Is(written, context.DeadlineExceeded) {
		t.Fatalf("the publish written before the block: %v, want ErrOutcomeUnknown (may or may not), not a paused publish", written)
	}
	ev.waitFor(t, RecoveryBlocked)
	short, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	never := pub.Send(short, order{ID: -1})
	cancel()
	if !errors.As(never, &paused) || errors.Is(never, acemq.ErrOutcomeUnknown) {
		t.Fatalf("a publish while blocked: %v, want a paused publish (never written), not an unknown outcome", never)
	}
	rabbitmqctl(t, port, "set_vm_memory_high_watermark", "0.4")
	ev.waitFor(t, RecoveryUnblocked)
	assertMessageCount(t, conn, q, sent+1) // the written one was delivered; the paused one was not
}

// publishUntilFailure publishes with short deadlines during the alarm until
// one fails; it returns how many were confirmed before it and its error.
func publishUntilFailure(t *testing.T, pub *acemq.Publisher[order]) (int, error) {
	t.Helper()
	for i := range 50 {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		err := pub.Send(ctx, order{ID: i})
		cancel()
		if err != nil {
			return i, err
		}
	}
	t.Fatal("50 publishes during a memory alarm all succeeded; the broker never blocked the connection")
	return 0, nil
}

// assertMessageCount waits up to 5 s for q to hold n messages.
func assertMessageCount(t *testing.T, conn *acemq.Conn, q string, n int) {
	t.Helper()
	tr := conn.Transport().(*Transport)
	var got int
	var err error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got, err = tr.MessageCount(ctxT(t), q); err == nil && got == n {
			return
		}
	}
	t.Fatalf("%s holds %d messages (%v), want %d", q, got, err, n)
}
