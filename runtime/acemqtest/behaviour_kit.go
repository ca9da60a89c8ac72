package acemqtest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// order is the payload the behaviour suite sends.
type order struct {
	ID   string   `json:"id"`
	Qty  int      `json:"qty"`
	Tags []string `json:"tags,omitempty"`
}

// bkit is one behaviour subtest: a URL, a default connection and the names
// it declared.
type bkit struct {
	t         *testing.T
	ctx       context.Context
	url       string
	conn      *acemq.Conn
	mu        sync.Mutex
	queues    []string
	exchanges []string
}

func newBKit(t *testing.T, url func(t *testing.T) string, cleanup func(t *testing.T, queues, exchanges []string)) *bkit {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	k := &bkit{t: t, ctx: ctx, url: url(t)}
	t.Cleanup(func() {
		cancel()
		if cleanup != nil {
			cleanup(t, k.queues, k.exchanges)
		}
	})
	k.conn = k.open()
	return k
}

// open connects to the subtest's URL with opts; the connection is closed
// when the subtest ends.
func (k *bkit) open(opts ...acemq.ConnOption) *acemq.Conn {
	k.t.Helper()
	conn, err := acemq.Connect(k.ctx, k.url, opts...)
	if err != nil {
		k.t.Fatalf("Connect(%s): %v", acemq.RedactURL(k.url), err)
	}
	k.t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// name returns a unique name for this subtest.
func (k *bkit) name(what string) string {
	return uniqueName("b-" + what)
}

// remember records queues (with their dead-letter and parked queues) for cleanup.
func (k *bkit) remember(queues ...string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, q := range queues {
		k.queues = append(k.queues, q, acemq.DeadLetterQueue(q), acemq.ParkedQueue(q))
	}
}

// rememberExchange records an exchange for cleanup.
func (k *bkit) rememberExchange(x string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.exchanges = append(k.exchanges, x)
}

// queue declares a new queue with opts (the defaults: durable, quorum).
func (k *bkit) queue(opts ...acemq.QueueOption) string {
	k.t.Helper()
	q := k.name("q")
	k.remember(q)
	if err := k.conn.DeclareQueue(k.ctx, q, opts...); err != nil {
		k.t.Fatalf("DeclareQueue(%s): %v", q, err)
	}
	return q
}

// exchange declares a new exchange of kind.
func (k *bkit) exchange(kind string) string {
	k.t.Helper()
	x := k.name("x-" + kind)
	k.rememberExchange(x)
	if err := k.conn.DeclareExchange(k.ctx, x, kind); err != nil {
		k.t.Fatalf("DeclareExchange(%s, %s): %v", x, kind, err)
	}
	return x
}

// send publishes o to queue through the default exchange.
func (k *bkit) send(queue string, o order, opts ...acemq.EnvelopeOption) acemq.PublishResult {
	k.t.Helper()
	res, err := acemq.NewPublisher[order](k.conn, "", queue).SendResult(k.ctx, o, opts...)
	if err != nil {
		k.t.Fatalf("Send(%s to %s): %v", o.ID, queue, err)
	}
	return res
}

// consume starts a consumer of queue on conn (the default connection when
// nil); it is closed when the subtest ends.
func (k *bkit) consume(conn *acemq.Conn, queue string, h acemq.Handler[order], opts ...acemq.ConsumeOption) *acemq.Consumer {
	k.t.Helper()
	if conn == nil {
		conn = k.conn
	}
	c, err := acemq.Consume(k.ctx, conn, queue, h, opts...)
	if err != nil {
		k.t.Fatalf("Consume(%s): %v", queue, err)
	}
	k.t.Cleanup(func() { _ = c.Close() })
	return c
}

// pull waits for the next message of queue and takes it.
func (k *bkit) pull(queue string) driver.Delivery {
	k.t.Helper()
	var d driver.Delivery
	k.eventually("a message in "+queue, func() bool {
		got, ok, err := k.conn.Pull(k.ctx, queue)
		if err != nil {
			k.t.Fatalf("Pull(%s): %v", queue, err)
		}
		d = got
		return ok
	})
	return d
}

// pullEnvelope waits for the next message of queue and reads its envelope.
func (k *bkit) pullEnvelope(queue string) (driver.Delivery, acemq.Envelope) {
	k.t.Helper()
	d := k.pull(queue)
	return d, acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)
}

// count returns the number of ready messages in queue.
func (k *bkit) count(queue string) int {
	k.t.Helper()
	n, err := k.conn.MessageCount(k.ctx, queue)
	if err != nil {
		k.t.Fatalf("MessageCount(%s): %v", queue, err)
	}
	return n
}

// eventually polls cond until it holds, failing the test after waitLimit.
func (k *bkit) eventually(what string, cond func() bool) {
	k.t.Helper()
	eventually(k.t, what, cond)
}

// recorder is a handler that records what it handled and answers with ack.
type recorder struct {
	mu  sync.Mutex
	got []acemq.Message[order]
	c   chan acemq.Message[order]
	ack func(ctx context.Context, m acemq.Message[order]) acemq.Ack
}

func newRecorder(ack func(ctx context.Context, m acemq.Message[order]) acemq.Ack) *recorder {
	if ack == nil {
		ack = func(context.Context, acemq.Message[order]) acemq.Ack { return acemq.Accept() }
	}
	return &recorder{c: make(chan acemq.Message[order], 1000), ack: ack}
}

// handle is the recorder's acemq.Handler.
func (r *recorder) handle(ctx context.Context, m acemq.Message[order]) acemq.Ack {
	r.mu.Lock()
	r.got = append(r.got, m)
	r.mu.Unlock()
	r.c <- m
	return r.ack(ctx, m)
}

// handled returns how many messages the recorder handled.
func (r *recorder) handled() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.got)
}

// next waits for the next handled message.
func (r *recorder) next(k *bkit) acemq.Message[order] {
	k.t.Helper()
	select {
	case m := <-r.c:
		return m
	case <-time.After(waitLimit):
		k.t.Fatalf("no message handled within %v", waitLimit)
		return acemq.Message[order]{}
	}
}

// expect waits for the next handled message and checks its payload id.
func (r *recorder) expect(k *bkit, id string) acemq.Message[order] {
	k.t.Helper()
	m := r.next(k)
	if m.Payload.ID != id {
		k.t.Fatalf("handled %q, want %q", m.Payload.ID, id)
	}
	return m
}
