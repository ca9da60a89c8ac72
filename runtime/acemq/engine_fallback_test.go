package acemq_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// dropping is a transport whose publishes to routing keys containing drop
// reach no queue, as if that queue had been deleted.
type dropping struct {
	driver.Transport
	drop string
}

func (d dropping) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	if strings.Contains(key, d.drop) {
		return acemq.PublishResult{MessageID: msg.MessageID, Confirmed: true, ReturnReason: "312 NO_ROUTE"}, nil
	}
	return d.Transport.Publish(ctx, exchange, key, msg)
}

// droppingConn returns a connection that drops as dropping does, and a
// plain connection to the same broker for inspection.
func droppingConn(t *testing.T, drop string) (*acemq.Conn, *acemq.Conn) {
	t.Helper()
	base := connect(t)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	conn, err := acemq.NewConn(dropping{Transport: base.Transport(), drop: drop}, acemq.WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	return conn, base
}

func TestMissingRungFallsBackToWaitingInTheConsumer(t *testing.T) {
	conn, _ := droppingConn(t, ".retry.")
	declare(t, conn, "orders")
	first, second := retryOnceThenAccept(t, conn, acemq.FixedRetry(2, 3*time.Millisecond).WaitInBrokerFrom(time.Millisecond))
	if first.Outcome != "retried" || second.Outcome != "acked" || second.Envelope.Attempt != 2 {
		t.Fatalf("retry %+v then %+v", first, second)
	}
}

// refusing is a transport whose publishes to routing keys containing refuse
// fail, times times, as a set-aside queue's dead node makes them fail
// (unconfirmed), then go through.
type refusing struct {
	driver.Transport
	refuse string
	left   *atomic.Int64
}

func (r refusing) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	if strings.Contains(key, r.refuse) && r.left.Add(-1) >= 0 {
		return acemq.PublishResult{}, driver.ErrBrokerRefused
	}
	return r.Transport.Publish(ctx, exchange, key, msg)
}

// TestASetAsideThatCannotBeConfirmedLeavesTheOriginalInItsQueue: a
// set-aside whose republish fails (not confirmed: the {queue}.dlq's node is
// down) no longer nacks the original without requeue, which loses it when
// the broker's own dead-lettering goes to the same dead node; it requeues
// it, and a later delivery sets it aside with the engine's reason. This is a
// deviation from FAMILY-SPEC §2.6 (nack without requeue), as is an
// unroutable set-aside (TestSetAsideToDeletedDLQIsNotDropped).
func TestASetAsideThatCannotBeConfirmedLeavesTheOriginalInItsQueue(t *testing.T) {
	base := connect(t)
	left := new(atomic.Int64)
	left.Store(2)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	conn, err := acemq.NewConn(refusing{Transport: base.Transport(), refuse: ".dlq", left: left}, acemq.WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	topo := acemq.NewTopology().Queue("orders").DeadLetters("orders")
	if err := topo.Apply(context.Background(), conn); err != nil {
		t.Fatal(err)
	}
	var deliveries atomic.Int64
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		deliveries.Add(1)
		return acemq.Reject(errors.New("bad"))
	})
	send(t, conn, "orders", Order{})
	d := awaitMessage(t, base, "orders.dlq")
	if reason := reasonOn(d); !strings.Contains(reason, "bad") {
		t.Fatalf("set aside with reason %q, want the engine's (the broker's DLX took it instead?)", reason)
	}
	if n := deliveries.Load(); n != 3 {
		t.Fatalf("handled %d times, want 3 (two failed set-asides requeued it)", n)
	}
}
