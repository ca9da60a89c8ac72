package acemq_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// blockingTransport is a memory transport whose broker says it blocked the
// connection, counting Health's probes.
type blockingTransport struct {
	driver.Transport
	reason  string
	blocked bool
	probes  atomic.Int64
}

func (b *blockingTransport) Blocked() (string, bool) { return b.reason, b.blocked }

func (b *blockingTransport) DeclareQueue(ctx context.Context, name string, spec driver.QueueSpec) error {
	b.probes.Add(1)
	return b.Transport.DeclareQueue(ctx, name, spec)
}

func newBlockingConn(t *testing.T, reason string, blocked bool) (*acemq.Conn, *blockingTransport) {
	t.Helper()
	mem, err := acemq.Connect(context.Background(), brokerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	bt := &blockingTransport{Transport: mem.Transport(), reason: reason, blocked: blocked}
	conn, err := acemq.NewConn(bt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn, bt
}

func TestHealthOfABlockedConnectionIsUpWithTheReasonAndNoProbe(t *testing.T) {
	conn, bt := newBlockingConn(t, "low on memory", true)
	r := conn.Health(context.Background())
	want := "the broker has blocked this connection; publishing is paused: low on memory"
	if r.Status != acemq.HealthUp || r.Detail != want || r.Parts["blocked"] != true || r.Parts["blockedReason"] != "low on memory" {
		t.Fatalf("Health = %+v, want up with %q", r, want)
	}
	if n := bt.probes.Load(); n != 0 {
		t.Fatalf("Health probed the broker %d times; a blocked broker reads nothing, so it must not", n)
	}
}

func TestHealthOfAnUnblockedReporterStillProbes(t *testing.T) {
	conn, bt := newBlockingConn(t, "", false)
	r := conn.Health(context.Background())
	if r.Status != acemq.HealthUp || r.Parts["blocked"] != false || bt.probes.Load() != 1 {
		t.Fatalf("Health = %+v after %d probes, want up, not blocked, one probe", r, bt.probes.Load())
	}
}

func TestIsBlockedFindsAPausedPublishInsideAPublishFailure(t *testing.T) {
	paused := &driver.PublishingPausedError{Reason: "low on disk", Err: context.DeadlineExceeded}
	err := fmt.Errorf("outer: %w", &acemq.PublishFailedError{MessageID: "m1", RoutingKey: "q", Err: paused})
	if !acemq.IsBlocked(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("IsBlocked(%v) = false or the ctx error is lost", err)
	}
	if want := "publishing is paused because the broker blocked this connection (low on disk)"; !strings.Contains(err.Error(), want) ||
		strings.Count(err.Error(), "acemq:") != 1 {
		t.Fatalf("err = %q, want %q under a single acemq: prefix", err, want)
	}
	if paused.Error() != "acemq: "+"publishing is paused because the broker blocked this connection (low on disk)" {
		t.Fatalf("PublishingPausedError = %q, want the family's message", paused.Error())
	}
}

func TestIsBlockedIsFalseForOtherErrors(t *testing.T) {
	for _, err := range []error{nil, context.DeadlineExceeded, driver.ErrBrokerRefused, acemq.ErrClosed} {
		if acemq.IsBlocked(err) {
			t.Errorf("IsBlocked(%v) = true", err)
		}
	}
	if !acemq.IsBlocked(&driver.ConnectionBlockedError{Reason: "low on memory"}) {
		t.Error("IsBlocked(ConnectionBlockedError) = false")
	}
}

func TestConnBlockedAndBlockedReasonFollowTheTransport(t *testing.T) {
	conn, _ := newBlockingConn(t, "low on memory", true)
	if blocked, known := conn.Blocked(); !blocked || !known || conn.BlockedReason() != "low on memory" {
		t.Fatalf("Blocked() = %v, %v, reason %q; want blocked, known, low on memory", blocked, known, conn.BlockedReason())
	}
	mem, err := acemq.Connect(context.Background(), brokerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	if blocked, known := mem.Blocked(); blocked || known || mem.BlockedReason() != "" {
		t.Fatalf("memory Blocked() = %v, %v, reason %q; want unknown and not blocked", blocked, known, mem.BlockedReason())
	}
}
