package acemq_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestConcurrentHandlersSettleEveryMessageExactlyOnce(t *testing.T) {
	conn := ordersConn(t)
	var mu sync.Mutex
	accepted := map[int]int{}
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		switch {
		case m.Payload.Total%3 == 0:
			return acemq.Reject(errors.New("no"))
		case m.Payload.Total%3 == 1 && m.Envelope.Attempt == 1:
			return acemq.Retry(errors.New("again"))
		}
		mu.Lock()
		defer mu.Unlock()
		accepted[m.Payload.Total]++
		return acemq.Accept()
	}, acemq.Concurrency(8), acemq.Prefetch(16), acemq.RetryWith(acemq.FixedRetry(2, time.Millisecond)))
	payloads := make([]Order, 300)
	for i := range payloads {
		payloads[i] = Order{Total: i}
	}
	if _, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), payloads); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "every rejection in the dead-letter queue", func() bool { return count(t, conn, "orders.dlq") == 100 })
	waitFor(t, "every acceptance", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(accepted) == 200
	})
	mu.Lock()
	defer mu.Unlock()
	for total, n := range accepted {
		if n != 1 || total%3 == 0 {
			t.Errorf("message %d accepted %d times", total, n)
		}
	}
	if n := count(t, conn, "orders"); n != 0 {
		t.Errorf("%d left in the queue", n)
	}
}
