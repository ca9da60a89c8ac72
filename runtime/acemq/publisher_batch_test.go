package acemq_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// gate is a transport whose publishes all wait until n of them are in
// flight: a SendAll that awaited each confirm before the next publish would
// never get there.
type gate struct {
	acemq.Transport
	n       int
	mu      sync.Mutex
	arrived int
	open    chan struct{}
}

func (g *gate) Publish(ctx context.Context, exchange, key string, msg acemq.Outbound) (acemq.PublishResult, error) {
	g.mu.Lock()
	g.arrived++
	if g.arrived == g.n {
		close(g.open)
	}
	g.mu.Unlock()
	select {
	case <-g.open:
		return g.Transport.Publish(ctx, exchange, key, msg)
	case <-time.After(3 * time.Second):
		return acemq.PublishResult{}, errors.New("the batch was not in flight at once")
	}
}

func TestSendAllHasEveryPublishInFlightBeforeAnyConfirm(t *testing.T) {
	base := connect(t)
	declare(t, base, "orders")
	conn, err := acemq.NewConn(&gate{Transport: base.Transport(), n: 10, open: make(chan struct{})})
	if err != nil {
		t.Fatal(err)
	}
	results, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), make([]Order, 10))
	if err != nil || len(results) != 10 {
		t.Fatalf("%d results, %v", len(results), err)
	}
	if n := count(t, base, "orders"); n != 10 {
		t.Fatalf("%d published", n)
	}
}

func TestSendAllReportsEachUnroutableMessage(t *testing.T) {
	conn := connect(t)
	pub := acemq.NewPublisher[Order](conn, "", "nowhere", acemq.Mandatory[Order]())
	results, err := pub.SendAll(context.Background(), make([]Order, 3))
	var be *acemq.BatchPublishFailedError
	if !errors.As(err, &be) || be.Failed != 3 || be.Confirmed != 0 || len(results) != 3 {
		t.Fatalf("got %v", err)
	}
	for i, e := range be.Errors {
		if !errors.Is(e, acemq.ErrUnroutable) {
			t.Errorf("failure %d: %v", i, e)
		}
	}
	if !errors.Is(err, acemq.ErrUnroutable) {
		t.Errorf("the batch error does not unwrap to its first failure")
	}
}
