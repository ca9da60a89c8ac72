package rabbitmq

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// TestKillingTheConnectedNodeDuringAStreamOfSendsFailsNoSendAndLosesNone:
// while Send and SendAsync publish to a quorum queue from many goroutines,
// the node they are connected to is SIGKILLed. Every publish whose confirm
// was lost with the node is sent again on a surviving node: no Send or
// Pending returns an error (their ctx is long), and every one that returned
// nil is handled.
func TestKillingTheConnectedNodeDuringAStreamOfSendsFailsNoSendAndLosesNone(t *testing.T) {
	cl := clusterNodes(t)
	if cl == nil {
		return
	}
	ev := newEvents()
	ctx := context.Background()
	conn, err := acemq.Connect(ctx, cl.url, clusterDelay, OnRecovery(ev.record), NackRetries(20), ConfirmTimeout(10*time.Second),
		acemq.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	tr := conn.Transport().(*Transport)
	hosts, at := tr.Hosts()
	victim := portOf(hosts[at])
	c := newCleanerAt(t, cl.nodeURL(t, cl.other(victim)))
	run, consumer, pub := startLossRun(t, ctx, conn, c, "cluster-resend")
	defer consumer.Close()
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() { run.publish(ctx, pub) })
	}
	wg.Go(func() { run.publishAsync(ctx, pub) })
	run.waitSent(t, 2000)
	cl.kill(t, victim)
	ev.waitFor(t, RecoveryLost)
	ev.waitFor(t, RecoveryRecovered)
	run.waitSent(t, run.returned()+2000)
	run.stopped.Store(true)
	wg.Wait()
	if n := run.failed.Load(); n > 0 {
		t.Errorf("%d publishes returned an error although their ctx had not ended (first: %v)", n, run.firstFail.Load())
	}
	assertAllHandled(t, run)
}
