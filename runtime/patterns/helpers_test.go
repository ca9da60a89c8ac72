package patterns

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
	_ "github.com/acemq/acemq-gen/runtime/rabbitmq"
)

// testWait bounds every wait in these tests; nothing normally comes near it.
const testWait = 10 * time.Second

// rig is one transport under test: memory:// or the RabbitMQ broker.
type rig struct {
	t      *testing.T
	url    string
	broker bool
}

var rigSeq atomic.Int64

// onEveryTransport runs fn on memory:// and, when ACEMQ_TEST_AMQP_URL is set,
// on the broker (skipped with a message naming scripts/broker.sh otherwise,
// failed when ACEMQ_REQUIRE_BROKER=1).
func onEveryTransport(t *testing.T, fn func(t *testing.T, r *rig)) {
	t.Run("memory", func(t *testing.T) {
		fn(t, &rig{t: t, url: "memory://patterns-" + acemq.NewUUID()})
	})
	t.Run("rabbitmq", func(t *testing.T) {
		fn(t, &rig{t: t, url: brokerURL(t), broker: true})
	})
}

// brokerURL is the broker scripts/test.sh starts (acemqtest.BrokerURL).
func brokerURL(t *testing.T) string { return acemqtest.BrokerURL(t) }

// ctx is a context bounded by testWait.
func (r *rig) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	r.t.Cleanup(cancel)
	return ctx
}

// conn connects, closed at cleanup.
func (r *rig) conn(opts ...acemq.ConnOption) *acemq.Conn {
	r.t.Helper()
	c, err := acemq.Connect(r.ctx(), r.url, opts...)
	if err != nil {
		r.t.Fatalf("connect %s: %v", r.url, err)
	}
	r.t.Cleanup(func() { _ = c.Close() })
	return c
}

// name returns a name unique to this test run, deleted (with its .dlq and
// .parked) from the broker at cleanup.
func (r *rig) name(base string) string {
	n := "patterns-test-" + base + "-" + strings.ReplaceAll(acemq.NewUUID()[:8], "-", "")
	if r.broker {
		r.t.Cleanup(func() { deleteQueues(r.t, r.url, n, n+".dlq", n+".parked") })
	}
	return n
}

// queue declares a transient request queue.
func (r *rig) queue(conn *acemq.Conn, base string) string {
	r.t.Helper()
	q := r.name(base)
	if err := conn.DeclareQueue(r.ctx(), q, acemq.Transient()); err != nil {
		r.t.Fatalf("declare %s: %v", q, err)
	}
	return q
}

func deleteQueues(t *testing.T, url string, names ...string) {
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Errorf("cleanup: %v", err)
		return
	}
	defer conn.Close()
	for _, n := range names {
		if ch, err := conn.Channel(); err == nil {
			_, _ = ch.QueueDelete(n, false, false, false)
			_ = ch.Close()
		}
	}
}

// eventually waits until cond holds, failing with what after testWait.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// count returns the ready messages of queue.
func count(t *testing.T, conn *acemq.Conn, queue string) int {
	t.Helper()
	n, err := conn.MessageCount(context.Background(), queue)
	if err != nil {
		t.Fatalf("count %s: %v", queue, err)
	}
	return n
}

// serve starts a responder, closed at cleanup.
func serve[Req, Resp any](t *testing.T, conn *acemq.Conn, queue string, h func(context.Context, acemq.Message[Req]) (Resp, error), opts ...acemq.ConsumeOption) *Responder {
	t.Helper()
	r, err := Serve(context.Background(), conn, queue, h, opts...)
	if err != nil {
		t.Fatalf("Serve %s: %v", queue, err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// requester opens a requester to queue through the default exchange, closed at cleanup.
func requester[Req, Resp any](t *testing.T, conn *acemq.Conn, queue string, opts ...RequesterOption) *Requester[Req, Resp] {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	r, err := NewRequester[Req, Resp](ctx, conn, "", queue, opts...)
	if err != nil {
		t.Fatalf("NewRequester %s: %v", queue, err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// double is the handler most tests serve: n → 2n.
func double(_ context.Context, m acemq.Message[int]) (int, error) { return 2 * m.Payload, nil }
