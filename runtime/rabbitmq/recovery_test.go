package rabbitmq

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

func TestRecoveryRedeclaresTopologyAndResumesTheSubscription(t *testing.T) {
	ev := newEvents()
	tr, c := openTransport(t, OnRecovery(ev.record)), newCleaner(t)
	ctx, x, q := ctxT(t), c.exchange(unique("rec")), unique("rec-excl")
	if err := tr.DeclareExchange(ctx, x, driver.ExchangeSpec{Kind: "direct"}); err != nil {
		t.Fatal(err)
	}
	// an exclusive queue dies with its connection: only a redeclare brings it back
	if err := tr.DeclareQueue(ctx, q, driver.QueueSpec{Exclusive: true}); err != nil {
		t.Fatal(err)
	}
	if err := tr.Bind(ctx, q, x, "k"); err != nil {
		t.Fatal(err)
	}
	box, _ := consumeInbox(ctx, t, tr, q, 5)
	tr.dropConnection()
	ev.waitFor(t, RecoveryLost)
	if got := ev.waitFor(t, RecoveryRecovered); got.Err != nil || got.Attempt != 1 {
		t.Fatalf("recovered event = %+v, want attempt 1 without error", got)
	}
	res, err := tr.Publish(ctx, x, "k", driver.Outbound{MessageID: "after", Mandatory: true})
	if err != nil || !res.Routed {
		t.Fatalf("Publish after recovery = %+v, %v; want routed through the redeclared binding", res, err)
	}
	if d := box.next(t); d.MessageID != "after" {
		t.Fatalf("resumed subscription got %q, want after", d.MessageID)
	}
}

func TestRecoveryReportsEveryFailedAttemptUntilTheBrokerIsBack(t *testing.T) {
	ev := newEvents()
	tr := openTransport(t, OnRecovery(ev.record))
	good := tr.cutOff()
	ev.waitFor(t, RecoveryLost)
	ev.waitFor(t, RecoveryRetrying)
	second := ev.waitFor(t, RecoveryRetrying)
	if second.Attempt != 2 || second.Err == nil {
		t.Fatalf("second retrying event = %+v, want attempt 2 carrying the first failure", second)
	}
	tr.setURL(good)
	if got := ev.waitFor(t, RecoveryRecovered); got.Attempt < 2 {
		t.Fatalf("recovered event = %+v, want attempt >= 2", got)
	}
}

func TestPublishWhileDownWaitsForRecovery(t *testing.T) {
	ev := newEvents()
	tr, c := openTransport(t, OnRecovery(ev.record)), newCleaner(t)
	ctx, q := ctxT(t), c.declared(tr, "wait", driver.QueueSpec{})
	good := tr.cutOff()
	ev.waitFor(t, RecoveryLost)
	done := make(chan error, 1)
	go func() {
		_, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "patient"})
		done <- err
	}()
	ev.waitFor(t, RecoveryRetrying) // the publish is waiting while redials fail
	tr.setURL(good)
	if err := <-done; err != nil {
		t.Fatalf("publish started while down: %v, want success after recovery", err)
	}
	if n, err := tr.MessageCount(ctx, q); err != nil || n != 1 {
		t.Fatalf("MessageCount = %d, %v; want 1", n, err)
	}
}

func TestPublishWhileDownGivesUpWhenItsContextEnds(t *testing.T) {
	ev := newEvents()
	tr := openTransport(t, OnRecovery(ev.record))
	tr.cutOff()
	ev.waitFor(t, RecoveryLost)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := tr.Publish(ctx, "", "q", driver.Outbound{MessageID: "m"})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "down") {
		t.Fatalf("err = %v, want a deadline error saying the connection is down", err)
	}
}

func TestPublishesAcrossConnectionDropsNeverSucceedSilently(t *testing.T) {
	ev := newEvents()
	tr, c := openTransport(t, OnRecovery(ev.record)), newCleaner(t)
	ctx, q := ctxT(t), c.declared(tr, "drops", driver.QueueSpec{Durable: true})
	var confirmed sync.Map
	var count, failed atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for p := range 8 {
		wg.Go(func() { publishUntil(ctx, t, tr, q, p, stop, &confirmed, &count, &failed) })
	}
	for range 3 {
		waitCount(t, &count, count.Load()+20)
		tr.dropConnection()
		ev.waitFor(t, RecoveryRecovered)
	}
	waitCount(t, &count, count.Load()+20)
	close(stop)
	wg.Wait()
	t.Logf("%d publishes confirmed, %d failed across 3 drops", count.Load(), failed.Load())
	onQueue := drain(t, tr, q)
	confirmed.Range(func(id, _ any) bool {
		if !onQueue[id.(string)] {
			t.Errorf("message %s was confirmed but is not on the queue", id)
		}
		return true
	})
}

func TestConsumerChannelClosedByTheBrokerIsReopened(t *testing.T) {
	tr, c := openTransport(t), newCleaner(t)
	ctx, q := ctxT(t), c.declared(tr, "heal", driver.QueueSpec{})
	box, _ := consumeInbox(ctx, t, tr, q, 5)
	if _, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "one"}); err != nil {
		t.Fatal(err)
	}
	d := box.next(t)
	_ = d.Ack()
	_ = d.Ack() // unknown delivery tag: the broker closes this channel (PRECONDITION_FAILED)
	if _, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "two"}); err != nil {
		t.Fatal(err)
	}
	if d := box.next(t); d.MessageID != "two" {
		t.Fatalf("after the channel error got %q, want two", d.MessageID)
	}
}

func TestPublishToAMissingExchangeFailsAndTheNextPublishWorks(t *testing.T) {
	tr, c := openTransport(t), newCleaner(t)
	ctx, q := ctxT(t), c.declared(tr, "next", driver.QueueSpec{})
	_, err := tr.Publish(ctx, unique("missing"), "k", driver.Outbound{MessageID: "m"})
	if !errors.Is(err, ErrBrokerRefused) || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Fatalf("err = %v, want ErrBrokerRefused with the broker's NOT_FOUND", err)
	}
	if _, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "next"}); err != nil {
		t.Fatalf("publish after the channel error: %v", err)
	}
}

func TestRecoveryAfterTheBrokerClosesTheConnection(t *testing.T) {
	ev := newEvents()
	tr, c := openTransport(t, OnRecovery(ev.record), Name(unique("acemq-test"))), newCleaner(t)
	ctx, q := ctxT(t), c.declared(tr, "ctl", driver.QueueSpec{})
	byBroker := closeFromBroker(t, tr)
	lost := ev.waitFor(t, RecoveryLost)
	if byBroker && (lost.Err == nil || !strings.Contains(lost.Err.Error(), "CONNECTION_FORCED")) {
		t.Errorf("lost event error = %v, want the broker's CONNECTION_FORCED", lost.Err)
	}
	ev.waitFor(t, RecoveryRecovered)
	if _, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: "m"}); err != nil {
		t.Fatalf("publish after recovery: %v (lost: %v)", err, lost.Err)
	}
}

// closeFromBroker closes the transport's connection (and no other: tests of
// other packages share the broker) with rabbitmqctl through
// scripts/broker.sh when that script runs the test broker, else through the
// socket (the same recovery path, seen from the client).
func closeFromBroker(t *testing.T, tr *Transport) (byBroker bool) {
	u, err := url.Parse(os.Getenv("ACEMQ_TEST_AMQP_URL"))
	script := "../../scripts/broker.sh"
	if err != nil || exec.Command(script, "status", u.Port()).Run() != nil {
		t.Log("scripts/broker.sh does not run this broker; closing the socket instead")
		tr.dropConnection()
		return false
	}
	ctl := func(args ...string) string {
		out, err := exec.Command(script, append([]string{"ctl", u.Port(), "--", "rabbitmqctl"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("rabbitmqctl %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	pid := connectionPid(t, ctl("list_connections", "-q", "--no-table-headers", "pid", "client_properties"), tr.cfg.name)
	ctl("close_connection", pid, "acemq recovery test")
	return true
}

// connectionPid finds the pid of the connection named name in rabbitmqctl's
// list_connections output.
func connectionPid(t *testing.T, listing, name string) string {
	for _, line := range strings.Split(listing, "\n") {
		if strings.Contains(line, `{"connection_name","`+name+`"}`) {
			return strings.Fields(line)[0]
		}
	}
	t.Fatalf("no connection named %s among:\n%s", name, listing)
	return ""
}

func publishUntil(ctx context.Context, t *testing.T, tr *Transport, q string, p int, stop chan struct{}, confirmed *sync.Map, count, failed *atomic.Int64) {
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		id := fmt.Sprintf("p%d-%d", p, i)
		_, err := tr.Publish(ctx, "", q, driver.Outbound{MessageID: id, Persistent: true})
		if errors.Is(err, ErrBrokerRefused) {
			t.Errorf("publish %s: a lost connection was reported as a refusal: %v", id, err)
		}
		if err == nil {
			confirmed.Store(id, true)
			count.Add(1)
		} else {
			failed.Add(1)
			if os.Getenv("ACEMQ_TEST_VERBOSE") != "" {
				t.Logf("publish %s: %v", id, err)
			}
		}
	}
}

func waitCount(t *testing.T, count *atomic.Int64, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for count.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d publishes confirmed within 10 s", count.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// drain pulls every message off q and returns their ids.
func drain(t *testing.T, tr *Transport, q string) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	n, err := tr.MessageCount(ctxT(t), q)
	if err != nil {
		t.Fatal(err)
	}
	box := newInbox()
	sub, err := tr.Consume(ctxT(t), q, driver.ConsumeSpec{Prefetch: 500}, func(d driver.Delivery) {
		_ = d.Ack()
		box.deliver(d)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	for range n {
		ids[box.next(t).MessageID] = true
	}
	return ids
}

func TestCloseDuringRecoveryStopsRedialingAndFailsLaterCalls(t *testing.T) {
	ev := newEvents()
	tr := openTransport(t, OnRecovery(ev.record))
	tr.cutOff()
	ev.waitFor(t, RecoveryRetrying)
	if err := tr.Close(); err != nil {
		t.Fatalf("Close during recovery: %v", err)
	}
	_, err := tr.Publish(context.Background(), "", "q", driver.Outbound{MessageID: "late"})
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("Publish after Close: %v, want ErrClosed", err)
	}
	if err := tr.DeclareQueue(context.Background(), "q", driver.QueueSpec{}); !errors.Is(err, ErrClosed) {
		t.Fatalf("DeclareQueue after Close: %v, want ErrClosed", err)
	}
}
