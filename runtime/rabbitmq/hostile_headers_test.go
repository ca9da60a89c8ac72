package rabbitmq

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// deepTable is a header table nesting depth tables.
func deepTable(depth int) amqp.Table {
	t := amqp.Table{"leaf": "x"}
	for range depth {
		t = amqp.Table{"n": t}
	}
	return t
}

// wideTable is a header table of n entries.
func wideTable(n int) amqp.Table {
	t := make(amqp.Table, n)
	for i := range n {
		t[fmt.Sprintf("k%05d", i)] = nil
	}
	return t
}

// hostileRun is a consumer of a queue a foreign publisher sends hostile
// headers to, and of another queue on the same connection, counting
// reconnects.
type hostileRun struct {
	t            *testing.T
	url          string
	q, other     string
	lost         atomic.Int64
	handled      atomic.Int64 // the hostile queue's handler
	otherHandled chan int
	retry        bool // the hostile queue's handler asks for a retry
}

func newHostileRun(t *testing.T) *hostileRun {
	c := newCleaner(t)
	r := &hostileRun{t: t, url: brokerURL(t), otherHandled: make(chan int, 100)}
	r.q, r.other = c.queue(unique("hostile-headers")), c.queue(unique("hostile-other"))
	for _, q := range []string{r.q, r.other} {
		c.queue(acemq.DeadLetterQueue(q))
		c.queue(acemq.ParkedQueue(q))
	}
	return r
}

// consume connects and consumes both queues until the test ends.
func (r *hostileRun) consume(ctx context.Context) *acemq.Conn {
	t := r.t
	conn, err := acemq.Connect(ctx, r.url, testDelay, OnRecovery(func(ev RecoveryEvent) {
		if ev.Kind == RecoveryLost {
			r.lost.Add(1)
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	if err := acemq.NewTopology().Queue(r.q).Queue(r.other).DeadLetters(r.q).DeadLetters(r.other).Apply(ctx, conn); err != nil {
		t.Fatal(err)
	}
	r.start(ctx, conn, r.q, func(order) acemq.Ack {
		r.handled.Add(1)
		if r.retry {
			return acemq.Retry(errors.New("try again"))
		}
		return acemq.Accept()
	})
	r.start(ctx, conn, r.other, func(o order) acemq.Ack { r.otherHandled <- o.ID; return acemq.Accept() })
	return conn
}

func (r *hostileRun) start(ctx context.Context, conn *acemq.Conn, q string, fn func(order) acemq.Ack) {
	consumer, err := acemq.Consume(ctx, conn, q, func(_ context.Context, m acemq.Message[order]) acemq.Ack {
		return fn(m.Payload)
	}, acemq.RetryWith(acemq.FixedRetry(3, 10*time.Millisecond)))
	if err != nil {
		r.t.Fatalf("Consume %s with a hostile message queued: %v", q, err)
	}
	r.t.Cleanup(func() { _ = consumer.Close() })
}

// publishForeign sends a JSON order with headers as a foreign publisher:
// plain amqp091-go, no acemq code.
func (r *hostileRun) publishForeign(headers amqp.Table) {
	r.publishForeignBody(headers, []byte(`{"id":7}`))
}

// publishForeignBody sends body with headers as a foreign publisher.
func (r *hostileRun) publishForeignBody(headers amqp.Table, body []byte) {
	conn, err := amqp.Dial(r.url)
	if err != nil {
		r.t.Fatal(err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		r.t.Fatal(err)
	}
	if err := ch.Confirm(false); err != nil {
		r.t.Fatal(err)
	}
	dc, err := ch.PublishWithDeferredConfirm("", r.q, false, false, amqp.Publishing{
		Headers: headers, ContentType: "application/json", Body: body, MessageId: "hostile"})
	if err != nil || !dc.Wait() {
		r.t.Fatalf("the foreign publish was not confirmed: %v", err)
	}
}

// assertParkedWithin waits for n messages parked off the hostile queue,
// each within 1 s of the last, with want in their reasons.
func (r *hostileRun) assertParkedWithin(reader *thirdParty, n int, want string) {
	t := r.t
	for i := range n {
		start := time.Now()
		reason := r.takeParked(reader, start.Add(raceSlowdown*time.Second))
		if !strings.Contains(reason, want) {
			t.Errorf("parked reason %d = %q, want it to contain %q", i, reason, want)
		}
	}
}

func (r *hostileRun) takeParked(reader *thirdParty, deadline time.Time) string {
	for time.Now().Before(deadline) {
		d, ok, err := reader.ch.Get(acemq.ParkedQueue(r.q), true)
		if err != nil {
			r.t.Fatalf("basic.get: %v", err)
		}
		if ok {
			reason, _ := d.Headers[semconv.HeaderError].(string)
			return reason
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.t.Fatalf("nothing was parked off %s within %v (%d reconnects)", r.q, raceSlowdown*time.Second, r.lost.Load())
	return ""
}

// assertOtherFlows publishes n orders to the other queue through conn and
// waits for all to be handled.
func (r *hostileRun) assertOtherFlows(ctx context.Context, conn *acemq.Conn, n int) {
	pub := acemq.NewPublisher[order](conn, "", r.other)
	for i := range n {
		if err := pub.Send(ctx, order{ID: i}); err != nil {
			r.t.Fatalf("publish to the other queue: %v", err)
		}
	}
	for range n {
		select {
		case <-r.otherHandled:
		case <-time.After(5 * time.Second):
			r.t.Fatalf("the other queue's messages stopped flowing (%d reconnects)", r.lost.Load())
		}
	}
}

// assertHostileHeadersParked publishes a message with headers before the
// service starts and one while it runs: both are parked with want in their
// reason within 1 s, the connection is never lost, the other queue flows.
func assertHostileHeadersParked(t *testing.T, headers amqp.Table, want string) {
	assertHostileParked(t, headers, []byte(`{"id":7}`), want)
}

// assertHostileParked is assertHostileHeadersParked with the body to send.
func assertHostileParked(t *testing.T, headers amqp.Table, body []byte, want string) {
	r := newHostileRun(t)
	ctx := ctxT(t)
	setup, err := acemq.Connect(ctx, r.url)
	if err != nil {
		t.Fatal(err)
	}
	if err := acemq.NewTopology().Queue(r.q).DeadLetters(r.q).Apply(ctx, setup); err != nil {
		t.Fatal(err)
	}
	_ = setup.Close()
	r.publishForeignBody(headers, body) // queued before the service starts
	conn := r.consume(ctx)
	reader := newThirdParty(t, r.url)
	r.assertParkedWithin(reader, 1, want)
	r.assertOtherFlows(ctx, conn, 10)
	r.publishForeignBody(headers, body) // while it runs
	r.assertParkedWithin(reader, 1, want)
	r.assertOtherFlows(ctx, conn, 10)
	if n := r.lost.Load(); n != 0 {
		t.Errorf("the connection was lost %d times, want 0", n)
	}
	if n := r.handled.Load(); n != 0 {
		t.Errorf("the handler ran %d times on the hostile messages, want 0", n)
	}
}

func TestDeepHeaderTableIsParkedWithoutReconnect(t *testing.T) {
	assertHostileHeadersParked(t, amqp.Table{"deep": deepTable(40)},
		"could not be decoded: the header table is nested deeper than 32")
}

func TestWideHeaderTableIsParkedWithoutReconnect(t *testing.T) {
	assertHostileHeadersParked(t, wideTable(9000),
		"could not be decoded: the header table has a table or array of more than 8192 entries")
}

func TestDeepHeaderArrayIsParkedWithoutReconnect(t *testing.T) {
	arr := []any{"leaf"}
	for range 40 {
		arr = []any{arr}
	}
	assertHostileHeadersParked(t, amqp.Table{"deep": arr},
		"could not be decoded: the header table is nested deeper than 32")
}

// TestSetAsideNearFrameMaxFitsWithoutReconnect: a foreign message whose
// headers nearly fill frame_max (128 KiB) and whose body cannot be decoded
// is parked once, its large header dropped and named in the reason, where
// the x-acemq-* headers the set-aside adds made the broker close the
// connection, over and over.
func TestSetAsideNearFrameMaxFitsWithoutReconnect(t *testing.T) {
	headers := amqp.Table{"big": strings.Repeat("b", 130900), "small": "kept"}
	assertHostileParked(t, headers, []byte("{not json"),
		`; headers dropped to fit the broker's frame_max (`)
}

// TestRetryNearFrameMaxIsParkedNotLooped: a foreign message whose headers
// nearly fill frame_max, whose handler asks for a retry, cannot be
// republished with the x-acemq-* headers of its next attempt: it is parked
// (trimmed to fit) as cannot be retried, where it went back to its queue
// and round again for ever.
func TestRetryNearFrameMaxIsParkedNotLooped(t *testing.T) {
	r := newHostileRun(t)
	r.retry = true
	ctx := ctxT(t)
	conn := r.consume(ctx)
	r.publishForeign(amqp.Table{"big": strings.Repeat("b", 130900)})
	r.assertParkedWithin(newThirdParty(t, r.url), 1, "cannot be retried: ")
	r.assertOtherFlows(ctx, conn, 10)
	if n := r.handled.Load(); n != 1 || r.lost.Load() != 0 {
		t.Fatalf("the handler ran %d times with %d reconnects, want once and none", n, r.lost.Load())
	}
}
