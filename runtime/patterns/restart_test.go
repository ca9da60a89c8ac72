package patterns

import (
	"context"
	"errors"
	"fmt"
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
		var wg sync.WaitGroup
		errs := make(chan error, 200)
		for c := range 8 {
			wg.Go(func() {
				for i := range 25 {
					n := c*1000 + i
					got, err := callWithRetry(r.ctx(), req, n)
					if err != nil || got != 2*n {
						errs <- fmt.Errorf("caller %d call %d: got %d, %v", c, i, got, err)
					}
				}
			})
		}
		for range 2 {
			eventually(t, "some requests are answered", func() bool { return answered.Load() >= 40 })
			if err := resp.Close(); err != nil {
				t.Fatal(err)
			}
			answered.Store(0)
			resp = serve(t, serverConn, q, handler, acemq.Concurrency(4))
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	})
}
