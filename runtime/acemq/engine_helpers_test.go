package acemq_test

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// Order is the payload most tests publish.
type Order struct {
	ID    string `json:"id"`
	Total int    `json:"total"`
}

// connect opens a connection to a memory broker private to the test.
func connect(t *testing.T, opts ...acemq.ConnOption) *acemq.Conn {
	t.Helper()
	conn, err := acemq.Connect(context.Background(), brokerURL(t), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// declare declares queue (classic, so tests can redeclare it freely).
func declare(t *testing.T, conn *acemq.Conn, queue string, opts ...acemq.QueueOption) {
	t.Helper()
	if err := conn.DeclareQueue(context.Background(), queue, opts...); err != nil {
		t.Fatal(err)
	}
}

// ordersConn connects to the test's memory broker and declares the queue
// orders.
func ordersConn(t *testing.T) *acemq.Conn {
	t.Helper()
	conn := connect(t)
	declare(t, conn, "orders")
	return conn
}

// consume starts a consumer that stops with the test.
func consume[T any](t *testing.T, conn *acemq.Conn, queue string, h acemq.Handler[T], opts ...acemq.ConsumeOption) *acemq.Consumer {
	t.Helper()
	c, err := acemq.Consume(context.Background(), conn, queue, h, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// waitFor polls cond with millisecond steps and fails the test after 3s
// (the package's own waitFor, through export_test.go).
var waitFor = acemq.WaitFor

// count returns the ready messages of queue.
func count(t *testing.T, conn *acemq.Conn, queue string) int {
	t.Helper()
	n, err := conn.Transport().(driver.QueueInspector).MessageCount(context.Background(), queue)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// awaitMessage waits for a message in queue and takes it.
func awaitMessage(t *testing.T, conn *acemq.Conn, queue string) driver.Delivery {
	t.Helper()
	var d driver.Delivery
	waitFor(t, "a message in "+queue, func() bool {
		var ok bool
		var err error
		d, ok, err = conn.Transport().(driver.Puller).Pull(context.Background(), queue)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	})
	return d
}

// reasonOn returns the x-acemq-error header of a set-aside message.
func reasonOn(d driver.Delivery) string {
	s, _ := d.Headers[semconv.HeaderError].(string)
	return s
}

// answerEach starts a consumer of orders that answers every message with
// ack, and sends it one Order.
func answerEach(t *testing.T, ack acemq.Ack, opts ...acemq.ConsumeOption) *acemq.Conn {
	t.Helper()
	conn := ordersConn(t)
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return ack }, opts...)
	send(t, conn, "orders", Order{})
	return conn
}

// retryOnceThenAccept starts a consumer of orders that retries attempt 1
// with policy and accepts the next, sends it one Order, and returns the two
// settlements OnSettled reported.
func retryOnceThenAccept(t *testing.T, conn *acemq.Conn, policy acemq.RetryPolicy) (first, second acemq.Settlement) {
	t.Helper()
	settled := make(chan acemq.Settlement, 4)
	consume(t, conn, "orders", func(ctx context.Context, m acemq.Message[Order]) acemq.Ack {
		acemq.OnSettled(ctx, func(s acemq.Settlement) { settled <- s })
		if m.Envelope.Attempt == 1 {
			return acemq.Retry(errors.New("later"))
		}
		return acemq.Accept()
	}, acemq.RetryWith(policy))
	send(t, conn, "orders", Order{})
	return <-settled, <-settled
}

// wantReason fails the test unless the next message set aside to queue
// carries the reason want.
func wantReason(t *testing.T, conn *acemq.Conn, queue, want string) {
	t.Helper()
	if got := reasonOn(awaitMessage(t, conn, queue)); got != want {
		t.Errorf("reason %q", got)
	}
}

// recorder collects values from several goroutines.
type recorder[V any] struct {
	mu sync.Mutex
	vs []V
}

func (r *recorder[V]) add(v V) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.vs = append(r.vs, v)
}

func (r *recorder[V]) all() []V {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]V(nil), r.vs...)
}

func (r *recorder[V]) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.vs)
}

// send publishes one Order to queue through the default exchange.
func send(t *testing.T, conn *acemq.Conn, queue string, o Order, opts ...acemq.EnvelopeOption) {
	t.Helper()
	if err := acemq.NewPublisher[Order](conn, "", queue).Send(context.Background(), o, opts...); err != nil {
		t.Fatal(err)
	}
}

// syncWriter is an io.Writer safe for concurrent use, for log output.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.String()
}

// brokers holds each test's memory URL, so that -count=N runs never share
// a broker.
var brokers sync.Map

// brokerURL returns the memory:// URL of the test's own broker; the same
// test always gets the same URL.
func brokerURL(t *testing.T) string {
	u, _ := brokers.LoadOrStore(t, "memory://"+t.Name()+"-"+acemq.NewUUID())
	return u.(string)
}
