package rabbitmq

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// lossRun is one run of the nothing-lost test: what was published, what
// was handled. Publishers go on until stopped, so every fault lands while
// they publish.
type lossRun struct {
	stopped   atomic.Bool
	next      atomic.Int64 // next id to publish
	sent      sync.Map     // id -> true, for every Send that returned nil
	sentN     atomic.Int64
	failed    atomic.Int64
	firstFail atomic.Value // error
	handled   sync.Map     // id -> times handled
	handledN  atomic.Int64 // distinct ids handled
}

func (r *lossRun) publish(ctx context.Context, pub *acemq.Publisher[order]) {
	for !r.stopped.Load() {
		id := int(r.next.Add(1)) - 1
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := pub.Send(sctx, order{ID: id})
		cancel()
		r.record(id, err)
	}
}

func (r *lossRun) handle(_ context.Context, m acemq.Message[order]) acemq.Ack {
	if n, loaded := r.handled.LoadOrStore(m.Payload.ID, new(atomic.Int64)); loaded {
		n.(*atomic.Int64).Add(1)
	} else {
		r.handledN.Add(1)
	}
	return acemq.Accept()
}

// returned counts the publishes that returned, successfully or not.
func (r *lossRun) returned() int64 { return r.sentN.Load() + r.failed.Load() }

// waitSent waits until n publishes returned.
func (r *lossRun) waitSent(t *testing.T, n int64) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for r.returned() < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d publishes returned within 60 s", r.returned(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// missing returns the ids whose Send returned nil and that were never handled.
func (r *lossRun) missing() []int {
	var ids []int
	r.sent.Range(func(id, _ any) bool {
		if _, ok := r.handled.Load(id); !ok {
			ids = append(ids, id.(int))
		}
		return true
	})
	return ids
}

func TestNothingConfirmedIsLostAcrossABrokerRestartAndClosedConnections(t *testing.T) {
	url, port := faultNode(t)
	ev, c := newEvents(), newCleanerAt(t, url)
	ctx := context.Background()
	conn, err := acemq.Connect(ctx, url, OnRecovery(ev.record), RecoveryDelay(20*time.Millisecond, 250*time.Millisecond),
		acemq.WithLogger(slog.New(slog.DiscardHandler))) // acks lost with the connection are expected here
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	run, consumer, pub := startLossRun(t, ctx, conn, c, "nothing-lost")
	defer consumer.Close()
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() { run.publish(ctx, pub) })
	}
	run.waitSent(t, 5000)
	restartApp(t, port, ev)
	failedByRestart := run.failed.Load()
	run.waitSent(t, 12000)
	closeAllConnections(t, port, ev)
	t.Logf("publishes that returned an error: %d around the restart, %d around the closed connections",
		failedByRestart, run.failed.Load()-failedByRestart)
	run.waitSent(t, max(20000, run.returned()+2000))
	run.stopped.Store(true)
	wg.Wait()
	assertAllHandled(t, run)
}

// startLossRun declares on conn the durable quorum queue named after name,
// as the family declares it (c deletes it with its .dlq and .parked), consumes
// it into a lossRun, and returns that with a mandatory publisher to the queue;
// the caller closes consumer.
func startLossRun(t *testing.T, ctx context.Context, conn *acemq.Conn, c *cleaner, name string) (run *lossRun, consumer *acemq.Consumer, pub *acemq.Publisher[order]) {
	t.Helper()
	q := c.queue(unique(name))
	c.queue(q + ".dlq")
	c.queue(q + ".parked")
	if err := conn.DeclareQueue(ctx, q); err != nil {
		t.Fatal(err)
	}
	run = &lossRun{}
	consumer, err := acemq.Consume(ctx, conn, q, run.handle, acemq.Prefetch(200), acemq.Concurrency(4))
	if err != nil {
		t.Fatal(err)
	}
	return run, consumer, acemq.NewPublisher[order](conn, "", q, acemq.Mandatory[order]())
}

// restartApp stops and starts the broker application, and logs how long
// the transport took to recover once the broker was back.
func restartApp(t *testing.T, port string, ev *events) {
	t.Helper()
	t.Cleanup(func() { _, _ = runCtl(port, "start_app") }) // a no-op unless the test stopped half-way
	down := time.Now()
	rabbitmqctl(t, port, "stop_app")
	lost := ev.waitFor(t, RecoveryLost)
	rabbitmqctl(t, port, "start_app")
	back := time.Now()
	rec := ev.waitFor(t, RecoveryRecovered)
	t.Logf("stop_app/start_app: broker down %v; recovered %v after start_app returned, %v after the loss (attempt %d; lost: %v)",
		back.Sub(down).Round(time.Millisecond), time.Since(back).Round(time.Millisecond), ev.sinceLost().Round(time.Millisecond), rec.Attempt, lost.Err)
}

// closeAllConnections closes every connection of the node from the broker
// side and logs how long recovery took.
func closeAllConnections(t *testing.T, port string, ev *events) {
	t.Helper()
	rabbitmqctl(t, port, "close_all_connections", "acemq fault test")
	ev.waitFor(t, RecoveryLost)
	rec := ev.waitFor(t, RecoveryRecovered)
	t.Logf("close_all_connections: recovered %v after the loss (attempt %d)", ev.sinceLost().Round(time.Millisecond), rec.Attempt)
}

// assertAllHandled waits until every message whose Send returned nil was
// handled, and checks every publish returned.
func assertAllHandled(t *testing.T, run *lossRun) {
	t.Helper()
	if got, started := run.returned(), run.next.Load(); got != started {
		t.Fatalf("%d publishes returned of %d started, want every one to return", got, started)
	}
	deadline := time.Now().Add(60 * time.Second)
	missing := run.missing()
	for len(missing) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		missing = run.missing()
	}
	if len(missing) > 0 {
		t.Fatalf("%d messages whose Send returned nil were never handled (first: %v)", len(missing), missing[:min(5, len(missing))])
	}
	again := 0
	run.handled.Range(func(_, n any) bool { again += int(n.(*atomic.Int64).Load()); return true })
	t.Logf("%d sent and all handled (%d repeat handlings), %d publishes failed with an error (first: %v)",
		run.sentN.Load(), again, run.failed.Load(), run.firstFail.Load())
}

// publishAsync publishes through SendAsync, waiting for each Pending with a
// long ctx, until stopped; a window of up to 64 pending at once.
func (r *lossRun) publishAsync(ctx context.Context, pub *acemq.Publisher[order]) {
	type sent struct {
		id int
		pd *acemq.Pending
	}
	var window []sent
	settle := func(s sent) {
		wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		_, err := s.pd.Wait(wctx)
		cancel()
		r.record(s.id, err)
	}
	for !r.stopped.Load() {
		id := int(r.next.Add(1)) - 1
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		pd, err := pub.SendAsync(sctx, order{ID: id})
		cancel()
		if err != nil {
			r.record(id, err)
			continue
		}
		window = append(window, sent{id, pd})
		if len(window) == 64 {
			settle(window[0])
			window = window[1:]
		}
	}
	for _, s := range window {
		settle(s)
	}
}

// record counts one publish's outcome.
func (r *lossRun) record(id int, err error) {
	if err != nil {
		r.failed.Add(1)
		r.firstFail.CompareAndSwap(nil, err)
		return
	}
	r.sent.Store(id, true)
	r.sentN.Add(1)
}
