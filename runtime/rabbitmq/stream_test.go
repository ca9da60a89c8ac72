package rabbitmq

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// hookCount is a publish interceptor counting the outcome hooks run.
type hookCount struct{ n atomic.Int64 }

func (h *hookCount) intercept(_ context.Context, pc *acemq.PublishContext) error {
	pc.OnOutcome(func(context.Context, acemq.PublishOutcome) { h.n.Add(1) })
	return nil
}

// stream is one SendAsync run: every Pending it got and every SendAsync
// that failed.
type stream struct {
	mu       sync.Mutex
	pendings []*acemq.Pending
	failed   int
}

// send sends n orders with SendAsync, each bounded by a minute.
func (s *stream) send(ctx context.Context, p *acemq.Publisher[asyncOrder], n int) {
	for i := range n {
		sctx, cancel := context.WithTimeout(ctx, time.Minute)
		pending, err := p.SendAsync(sctx, asyncOrder{N: i})
		cancel()
		s.mu.Lock()
		if err != nil {
			s.failed++
		} else {
			s.pendings = append(s.pendings, pending)
		}
		s.mu.Unlock()
	}
}

// sent returns how many SendAsync calls returned.
func (s *stream) sent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pendings) + s.failed
}

// resolve waits for every Pending and returns the confirmed message IDs,
// failing the test for a Pending that does not resolve or resolves with
// anything but its confirm or ErrConfirmLost.
func (s *stream) resolve(t *testing.T) (confirmed []string, lost int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i, pending := range s.pendings {
		res, err := pending.Wait(ctx)
		switch {
		case err == nil && res.Confirmed:
			confirmed = append(confirmed, res.MessageID)
		case errors.Is(err, ErrConfirmLost):
			lost++
		default:
			t.Fatalf("pending %d resolved with %+v, %v; want its confirm or ErrConfirmLost", i, res, err)
		}
	}
	return confirmed, lost
}

// onQueue checks that every confirmed message is on q.
func onQueue(t *testing.T, tr *Transport, q string, confirmed []string) {
	t.Helper()
	got := drain(t, tr, q)
	for _, id := range confirmed {
		if !got[id] {
			t.Fatalf("message %s was confirmed but is not on the queue", id)
		}
	}
}

func TestSendAsyncPendingResolvesAcrossAReconnection(t *testing.T) {
	ev, hooks := newEvents(), &hookCount{}
	tr := openTransport(t, OnRecovery(ev.record), acemq.WithLogger(slog.New(slog.DiscardHandler)))
	q := declared(t, tr, "stream-drop")
	p := acemq.NewPublisher[asyncOrder](asyncConn(t, tr, acemq.WithPublishInterceptor(hooks.intercept)), "", q)
	s := &stream{}
	s.send(ctxT(t), p, 1000)
	tr.dropConnection()
	s.send(ctxT(t), p, 500) // written once the transport has recovered
	confirmed, lost := s.resolve(t)
	t.Logf("%d confirmed, %d lost with the connection, %d SendAsync failed", len(confirmed), lost, s.failed)
	if len(confirmed) < 500 {
		t.Errorf("%d confirmed, want at least the 500 sent after the recovery", len(confirmed))
	}
	waitHooks(t, hooks, int64(s.sent()))
	slotsFree(t, tr)
	onQueue(t, tr, q, confirmed)
}

// waitHooks waits until n outcome hooks ran, and checks no more do.
func waitHooks(t *testing.T, hooks *hookCount, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for hooks.n.Load() < n && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := hooks.n.Load(); got != n {
		t.Fatalf("%d outcome hooks ran, want one per publish (%d)", got, n)
	}
}

func TestSendAsyncPendingResolvesWhenTheBrokerClosesEveryConnection(t *testing.T) {
	url, port := faultNode(t)
	ev, hooks, c := newEvents(), &hookCount{}, newCleanerAt(t, url)
	ctx := context.Background()
	tr, err := Dial(ctx, url, OnRecovery(ev.record), RecoveryDelay(20*time.Millisecond, 250*time.Millisecond),
		acemq.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	q := c.queue(unique("stream-closed"))
	if err := tr.DeclareQueue(ctx, q, driver.QueueSpec{Durable: true, Args: map[string]any{"x-queue-type": "quorum"}}); err != nil {
		t.Fatal(err)
	}
	p := acemq.NewPublisher[asyncOrder](asyncConn(t, tr, acemq.WithPublishInterceptor(hooks.intercept)), "", q)
	s := &stream{}
	done := make(chan struct{})
	go func() { defer close(done); s.send(ctx, p, 20000) }()
	for s.sent() < 3000 {
		time.Sleep(time.Millisecond)
	}
	closeAllConnections(t, port, ev)
	<-done
	confirmed, lost := s.resolve(t)
	t.Logf("%d confirmed, %d lost with the connection, %d SendAsync failed", len(confirmed), lost, s.failed)
	waitHooks(t, hooks, int64(s.sent()))
	slotsFree(t, tr)
	onQueue(t, tr, q, confirmed)
}

func TestSendAsyncThroughRabbitMQBlocksWhileMaxOutstandingPublishesIsFull(t *testing.T) {
	tr := openTransport(t, MaxOutstandingPublishes(1))
	q := declared(t, tr, "stream-full")
	p := acemq.NewPublisher[asyncOrder](asyncConn(t, tr), "", q)
	if err := tr.window.acquire(ctxT(t)); err != nil { // an unconfirmed publish holds the only slot
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(ctxT(t))
	blocked := make(chan error, 1)
	go func() {
		_, err := p.SendAsync(ctx, asyncOrder{N: -1})
		blocked <- err
	}()
	for tr.window.waiting.Load() == 0 {
		select {
		case err := <-blocked:
			t.Fatalf("SendAsync with the window full returned %v, want it to block", err)
		default:
			time.Sleep(time.Millisecond)
		}
	}
	cancel()
	var failed *acemq.PublishFailedError
	if err := <-blocked; !errors.Is(err, context.Canceled) || !errors.As(err, &failed) || !strings.Contains(err.Error(), "MaxOutstandingPublishes") {
		t.Fatalf("SendAsync whose ctx ended waiting for a slot = %v, want a PublishFailedError naming MaxOutstandingPublishes", err)
	}
	tr.window.release()
	s := &stream{}
	s.send(ctxT(t), p, 50) // each waits for the previous one's confirm to free the slot
	confirmed, lost := s.resolve(t)
	if len(confirmed) != 50 || lost != 0 || s.failed != 0 {
		t.Fatalf("%d confirmed, %d lost, %d failed; want all 50 confirmed through a window of one", len(confirmed), lost, s.failed)
	}
	onQueue(t, tr, q, confirmed)
}

func TestSendAsyncUnroutableMandatoryThroughRabbitMQResolvesWithItsOwnReturn(t *testing.T) {
	tr := openTransport(t)
	q := declared(t, tr, "stream-mandatory")
	conn := asyncConn(t, tr)
	routed := acemq.NewPublisher[asyncOrder](conn, "", q, acemq.Mandatory[asyncOrder]())
	lost := acemq.NewPublisher[asyncOrder](conn, "", unique("nowhere"), acemq.Mandatory[asyncOrder]())
	var pendings []*acemq.Pending
	for i := range 200 {
		p := routed
		if i%3 == 0 {
			p = lost
		}
		pending, err := p.SendAsync(ctxT(t), asyncOrder{N: i})
		if err != nil {
			t.Fatal(err)
		}
		pendings = append(pendings, pending)
	}
	for i, pending := range pendings {
		res, err := pending.Wait(ctxT(t))
		if i%3 == 0 {
			if !errors.Is(err, acemq.ErrUnroutable) || res.Routed || !strings.Contains(err.Error(), "NO_ROUTE") {
				t.Fatalf("unroutable message %d: %+v, %v; want ErrUnroutable with NO_ROUTE", i, res, err)
			}
			continue
		}
		if err != nil || !res.Routed || !res.Confirmed {
			t.Fatalf("routed message %d: %+v, %v; want confirmed and routed", i, res, err)
		}
	}
}
