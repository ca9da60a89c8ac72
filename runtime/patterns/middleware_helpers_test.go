package patterns_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// order is the payload the middleware tests publish.
type order struct {
	ID string `json:"id"`
}

// mwConnect opens a private memory:// connection, closed with the test.
func mwConnect(t *testing.T, opts ...acemq.ConnOption) *acemq.Conn {
	t.Helper()
	conn, err := acemq.Connect(context.Background(), "memory://mw-"+acemq.NewUUID(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// mwConsume declares queue and consumes it with h until the test ends.
func mwConsume(t *testing.T, conn *acemq.Conn, queue string, h acemq.Handler[order], opts ...acemq.ConsumeOption) {
	t.Helper()
	if err := conn.DeclareQueue(context.Background(), queue); err != nil {
		t.Fatal(err)
	}
	c, err := acemq.Consume(context.Background(), conn, queue, h, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
}

// mwSend publishes o to queue through the default exchange.
func mwSend(t *testing.T, conn *acemq.Conn, queue string, o order, opts ...acemq.EnvelopeOption) {
	t.Helper()
	if err := acemq.NewPublisher[order](conn, "", queue).Send(context.Background(), o, opts...); err != nil {
		t.Fatal(err)
	}
}

// mwCount returns the ready messages of queue.
func mwCount(t *testing.T, conn *acemq.Conn, queue string) int {
	t.Helper()
	n, err := conn.Transport().(driver.QueueInspector).MessageCount(context.Background(), queue)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// settlements is an outermost middleware recording every settlement of the
// consumer it wraps, handler run or not.
type settlements struct {
	ch chan acemq.Settlement
}

func newSettlements() *settlements { return &settlements{ch: make(chan acemq.Settlement, 16)} }

func (s *settlements) middleware(next acemq.Handler[order]) acemq.Handler[order] {
	return func(ctx context.Context, m acemq.Message[order]) acemq.Ack {
		acemq.OnSettled(ctx, func(st acemq.Settlement) { s.ch <- st })
		return next(ctx, m)
	}
}

// next waits for the next settlement, failing the test after 3s.
func (s *settlements) next(t *testing.T) acemq.Settlement {
	t.Helper()
	select {
	case st := <-s.ch:
		return st
	case <-time.After(3 * time.Second):
		t.Fatal("timed out waiting for a settlement")
		return acemq.Settlement{}
	}
}

// calls counts a handler's runs and the attempts it saw.
type calls struct {
	mu       sync.Mutex
	attempts []int
}

func (c *calls) handler(ack func(n int) acemq.Ack) acemq.Handler[order] {
	return func(_ context.Context, m acemq.Message[order]) acemq.Ack {
		c.mu.Lock()
		c.attempts = append(c.attempts, m.Envelope.Attempt)
		n := len(c.attempts)
		c.mu.Unlock()
		return ack(n)
	}
}

func (c *calls) seen() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.attempts...)
}

// accept is a handler's answer that always accepts.
func accept(int) acemq.Ack { return acemq.Accept() }

// message builds a handler's Message with envelope id.
func message(id string) acemq.Message[order] {
	return acemq.Message[order]{Payload: order{ID: id}, Envelope: acemq.Envelope{ID: id, Type: "orders", Attempt: 1}}
}
