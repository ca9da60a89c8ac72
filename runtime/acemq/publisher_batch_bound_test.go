package acemq_test

import (
	"context"
	"sync"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// crowd is a transport without PublishAsync that counts its concurrent
// Publish calls. Each call waits until as many are in flight as SendAll may
// have (or every payload's publish has begun), so a SendAll that started a
// goroutine per payload would crowd far past the bound.
type crowd struct {
	driver.Transport
	bound, total int

	mu                      sync.Mutex
	cond                    *sync.Cond
	inFlight, started, most int
}

func newCrowd(inner driver.Transport, bound, total int) *crowd {
	c := &crowd{Transport: inner, bound: bound, total: total}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func (c *crowd) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	c.mu.Lock()
	c.inFlight++
	c.started++
	c.most = max(c.most, c.inFlight)
	c.cond.Broadcast()
	for c.inFlight < c.bound && c.started < c.total {
		c.cond.Wait()
	}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.inFlight--
		c.mu.Unlock()
	}()
	return c.Transport.Publish(ctx, exchange, key, msg)
}

func (c *crowd) mostInFlight() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.most
}

// TestSendAllWithoutPublishAsyncBoundsGoroutines: on a transport without
// PublishAsync, SendAll of many payloads never has more than SendAllWorkers
// publishes in flight (it used to start a goroutine per payload), yet keeps
// that many going, and still publishes every payload once.
func TestSendAllWithoutPublishAsyncBoundsGoroutines(t *testing.T) {
	base := connect(t)
	declare(t, base, "orders")
	const payloads = 1000
	tr := newCrowd(base.Transport(), acemq.SendAllWorkers, payloads)
	conn, err := acemq.NewConn(tr)
	if err != nil {
		t.Fatal(err)
	}
	if _, async := conn.Transport().(driver.AsyncPublisher); async {
		t.Fatal("the crowd transport must not be an AsyncPublisher")
	}
	results, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), make([]Order, payloads))
	if err != nil || len(results) != payloads {
		t.Fatalf("%d results, %v", len(results), err)
	}
	if most := tr.mostInFlight(); most > acemq.SendAllWorkers || most < 2 {
		t.Errorf("%d publishes in flight at most, want between 2 and SendAllWorkers (%d)", most, acemq.SendAllWorkers)
	}
	if n := count(t, base, "orders"); n != payloads {
		t.Errorf("%d published, want %d", n, payloads)
	}
}
