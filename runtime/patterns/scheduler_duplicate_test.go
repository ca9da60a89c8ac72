package patterns

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// A scheduler that dies after a hop's confirm and before its ack leaves the
// message on the ladder twice, with one envelope: both copies are
// delivered, and WithIdempotency absorbs the second.
func TestScheduledDuplicateLeftByACrashIsDeliveredWithTheSameIDAndAbsorbedByIdempotency(t *testing.T) {
	url := "memory://schedule-" + acemq.NewUUID()
	conn := schedConn(t, url)
	startScheduler(t, conn)
	startScheduler(t, schedConn(t, url)) // a second scheduler process
	q := "schedule-test-" + acemq.NewUUID()[:8]
	if err := conn.DeclareQueue(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	var arrived, handled atomic.Int64
	count := func(next acemq.Handler[reminder]) acemq.Handler[reminder] {
		return func(ctx context.Context, m acemq.Message[reminder]) acemq.Ack { arrived.Add(1); return next(ctx, m) }
	}
	h := Chain(func(context.Context, acemq.Message[reminder]) acemq.Ack { handled.Add(1); return acemq.Accept() },
		count, WithIdempotency[reminder](NewInMemoryIdempotencyStore(time.Hour)))
	k, err := acemq.Consume(context.Background(), conn, q, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = k.Close() })
	pub, id := acemq.NewPublisher[reminder](conn, "", q), acemq.NewUUID()
	for range 2 {
		if _, err := pub.SendAfter(context.Background(), 1100*time.Millisecond, reminder{N: 1}, acemq.MessageID(id)); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 5*time.Second, "both copies arrive", func() bool { return arrived.Load() == 2 })
	if handled.Load() != 1 {
		t.Errorf("the handler ran %d times for two copies of one scheduled message, want 1", handled.Load())
	}
}
