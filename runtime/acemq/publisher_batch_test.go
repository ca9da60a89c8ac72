package acemq_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// gate is a transport whose publishes all wait until n of them are in
// flight: a SendAll that awaited each confirm before the next publish would
// never get there.
type gate struct {
	driver.Transport
	n       int
	mu      sync.Mutex
	arrived int
	open    chan struct{}
}

func (g *gate) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
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

// syncOnly hides a transport's AsyncPublisher: SendAll through it hands
// each message to Transport.Publish on one of at most SendAllWorkers
// goroutines.
type syncOnly struct{ driver.Transport }

// onEachPath runs test once per way SendAll hands messages to the transport:
// PublishAsync (memory's own) and Publish (through syncOnly). base is a
// memory connection to inspect the queues with; open opens the publishing
// connection over the same transport.
func onEachPath(t *testing.T, test func(t *testing.T, base *acemq.Conn, open func(...acemq.ConnOption) *acemq.Conn)) {
	for _, async := range []bool{true, false} {
		t.Run(map[bool]string{true: "PublishAsync", false: "Publish"}[async], func(t *testing.T) {
			base := connect(t)
			test(t, base, func(opts ...acemq.ConnOption) *acemq.Conn {
				tr := base.Transport()
				if !async {
					tr = syncOnly{tr}
				}
				conn, err := acemq.NewConn(tr, opts...)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := conn.Transport().(driver.AsyncPublisher); ok != async {
					t.Fatalf("the transport is an AsyncPublisher: %v, want %v", ok, async)
				}
				return conn
			})
		})
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
	onEachPath(t, sendAllReportsEachUnroutableMessage)
}

func sendAllReportsEachUnroutableMessage(t *testing.T, _ *acemq.Conn, open func(...acemq.ConnOption) *acemq.Conn) {
	conn := open()
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

func TestSendAllRunsEveryOutcomeHookBeforeReturning(t *testing.T) {
	onEachPath(t, sendAllRunsEveryOutcomeHookBeforeReturning)
}

func sendAllRunsEveryOutcomeHookBeforeReturning(t *testing.T, base *acemq.Conn, open func(...acemq.ConnOption) *acemq.Conn) {
	var hooks atomic.Int64
	var refusedSeen atomic.Bool
	hook := func(_ context.Context, c *acemq.PublishContext) error {
		c.OnOutcome(func(_ context.Context, out acemq.PublishOutcome) {
			hooks.Add(1)
			if out.Err != nil && out.Envelope.ID != "" {
				refusedSeen.Store(true)
			}
		})
		if c.Payload.(Order).Total == 3 {
			return errors.New("refused")
		}
		return nil
	}
	conn := open(acemq.WithPublishInterceptor(hook))
	declare(t, base, "orders")
	payloads := make([]Order, 40)
	for i := range payloads {
		payloads[i] = Order{Total: i}
	}
	_, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), payloads)
	if err == nil {
		t.Fatal("the refused payload did not fail the batch")
	}
	if n := hooks.Load(); n != 40 || !refusedSeen.Load() {
		t.Fatalf("%d outcome hooks had run when SendAll returned (want 40); refusal seen: %v", n, refusedSeen.Load())
	}
}

func TestSendAllWithAnUnusableEnvelopeOptionFailsEveryPayloadAndPublishesNothing(t *testing.T) {
	onEachPath(t, sendAllWithAnUnusableEnvelopeOptionFailsEveryPayloadAndPublishesNothing)
}

func sendAllWithAnUnusableEnvelopeOptionFailsEveryPayloadAndPublishesNothing(t *testing.T, base *acemq.Conn, open func(...acemq.ConnOption) *acemq.Conn) {
	var intercepted atomic.Int64
	conn := open(acemq.WithPublishInterceptor(func(context.Context, *acemq.PublishContext) error {
		intercepted.Add(1)
		return nil
	}))
	declare(t, base, "orders")
	results, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), make([]Order, 3), acemq.SchemaVersion(0))
	var be *acemq.BatchPublishFailedError
	if !errors.As(err, &be) || be.Failed != 3 || be.Confirmed != 0 || len(results) != 3 {
		t.Fatalf("got %v, %d results", err, len(results))
	}
	if n := count(t, base, "orders"); n != 0 || intercepted.Load() != 0 {
		t.Fatalf("%d published, %d intercepted; want nothing", n, intercepted.Load())
	}
}

func TestSendAllOfManyMorePayloadsThanProcessorsPublishesEachExactlyOnce(t *testing.T) {
	onEachPath(t, sendAllOfManyMorePayloadsThanProcessorsPublishesEachExactlyOnce)
}

func sendAllOfManyMorePayloadsThanProcessorsPublishesEachExactlyOnce(t *testing.T, base *acemq.Conn, open func(...acemq.ConnOption) *acemq.Conn) {
	conn := open()
	declare(t, base, "orders")
	payloads := make([]Order, 300)
	for i := range payloads {
		payloads[i] = Order{Total: i}
	}
	results, err := acemq.NewPublisher[Order](conn, "", "orders").SendAll(context.Background(), payloads)
	if err != nil || len(results) != 300 {
		t.Fatalf("%d results, %v", len(results), err)
	}
	seen := map[int]bool{}
	for range payloads {
		var o Order
		if err := json.Unmarshal(awaitMessage(t, base, "orders").Body, &o); err != nil || seen[o.Total] {
			t.Fatalf("payload %d: duplicate or unreadable (%v)", o.Total, err)
		}
		seen[o.Total] = true
	}
	if len(seen) != 300 || count(t, base, "orders") != 0 {
		t.Fatalf("%d distinct payloads arrived, %d left over", len(seen), count(t, base, "orders"))
	}
}
