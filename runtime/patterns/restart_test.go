package patterns

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// callWithRetry retries a call that timed out, as a caller facing a
// restarting responder does; any other error ends it.
func callWithRetry(ctx context.Context, req *Requester[int, int], n int) (int, error) {
	for {
		got, err := req.Do(ctx, n)
		if !errors.Is(err, ErrRequestTimedOut) || ctx.Err() != nil {
			return got, err
		}
	}
}

// TestResponderRestartMidStreamNoReplyReachesTheWrongCaller restarts the
// responder twice while eight callers keep calling; every call gets its own
// answer. The callers call until both restarts are done (and at least 25
// times each): with a fixed budget of calls, a poller that woke late on a
// busy machine saw the whole stream finish before the first restart and then
// waited in vain for answers nobody asked for any more.
func TestResponderRestartMidStreamNoReplyReachesTheWrongCaller(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		serverConn, clientConn := r.conn(), r.conn()
		q := r.queue(serverConn, "restart")
		var answered atomic.Int64
		handler := func(_ context.Context, m acemq.Message[int]) (int, error) {
			answered.Add(1)
			return 2 * m.Payload, nil
		}
		resp := serve(t, serverConn, q, handler, acemq.Concurrency(4))
		req := requester[int, int](t, clientConn, q, Timeout(250*time.Millisecond))
		restarted := make(chan struct{})
		var wg sync.WaitGroup
		defer wg.Wait()
		defer close(restarted) // also when a restart fails the test
		for c := range 8 {
			wg.Go(func() { callUntil(t, r, req, c, restarted) })
		}
		for range 2 {
			eventually(t, "some requests are answered", func() bool { return answered.Load() >= 40 })
			if err := resp.Close(); err != nil {
				t.Fatal(err)
			}
			answered.Store(0)
			resp = serve(t, serverConn, q, handler, acemq.Concurrency(4))
		}
	})
}

// callUntil is caller c: it calls at least 25 times and until done is
// closed, checking that each answer is its own.
func callUntil(t *testing.T, r *rig, req *Requester[int, int], c int, done <-chan struct{}) {
	for i := 0; i < 25 || !isClosed(done); i++ {
		n := c*1_000_000 + i
		if got, err := callWithRetry(r.ctx(), req, n); err != nil || got != 2*n {
			t.Errorf("caller %d call %d: got %d, %v", c, i, got, err)
			return
		}
	}
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
