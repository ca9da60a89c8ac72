package acemq_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// heldConfirms is an AsyncPublisher over a memory transport that publishes
// at once but holds every confirmation until confirm() lets them go, as a
// broker slow to confirm would.
type heldConfirms struct {
	driver.Transport
	release chan struct{}
	once    sync.Once
	written atomic.Int64
}

func newHeldConfirms(t driver.Transport) *heldConfirms {
	return &heldConfirms{Transport: t, release: make(chan struct{})}
}

func (h *heldConfirms) PublishAsync(ctx context.Context, exchange, key string, msg driver.Outbound) (driver.Confirmation, error) {
	res, err := h.Transport.Publish(ctx, exchange, key, msg)
	if err != nil {
		return nil, err
	}
	h.written.Add(1)
	return heldConfirmation{h: h, res: res}, nil
}

// confirm lets every confirmation, past and future, through.
func (h *heldConfirms) confirm() { h.once.Do(func() { close(h.release) }) }

type heldConfirmation struct {
	h   *heldConfirms
	res acemq.PublishResult
}

func (c heldConfirmation) Wait(ctx context.Context) (acemq.PublishResult, error) {
	select {
	case <-c.h.release:
		return c.res, nil
	case <-ctx.Done():
		return acemq.PublishResult{}, ctx.Err()
	}
}

// heldConn is a connection over memory whose confirms are held, and the
// memory connection to inspect its queue with.
func heldConn(t *testing.T, opts ...acemq.ConnOption) (*acemq.Conn, *heldConfirms, *acemq.Conn) {
	t.Helper()
	base := connect(t)
	declare(t, base, "orders")
	h := newHeldConfirms(base.Transport())
	conn, err := acemq.NewConn(h, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return conn, h, base
}

// outcomeCounter is a publish interceptor whose hook records every outcome.
type outcomeCounter struct {
	mu       sync.Mutex
	outcomes []acemq.PublishOutcome
}

func (c *outcomeCounter) intercept(_ context.Context, pc *acemq.PublishContext) error {
	pc.OnOutcome(func(_ context.Context, o acemq.PublishOutcome) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.outcomes = append(c.outcomes, o)
	})
	return nil
}

func (c *outcomeCounter) seen() []acemq.PublishOutcome {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]acemq.PublishOutcome(nil), c.outcomes...)
}

func TestSendAsyncReturnsBeforeTheConfirmAndWaitReturnsWhatSendResultWould(t *testing.T) {
	conn, h, base := heldConn(t)
	ctx := context.Background()
	pending, err := acemq.NewPublisher[Order](conn, "", "orders").SendAsync(ctx, Order{ID: "a"}, acemq.CorrelationID("c-1"))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-pending.Done():
		t.Fatal("the pending publish settled before its confirm")
	default:
	}
	if n := count(t, base, "orders"); n != 1 {
		t.Fatalf("the queue holds %d messages before the confirm, want the written one", n)
	}
	h.confirm()
	res, err := pending.Wait(ctx)
	if err != nil || !res.Confirmed || !res.Routed || res.MessageID == "" {
		t.Fatalf("Wait = %+v, %v; want the confirmed, routed result", res, err)
	}
	d := awaitMessage(t, base, "orders")
	env := acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)
	if d.MessageID != res.MessageID || env.CorrelationID != "c-1" || env.Type != "orders" {
		t.Errorf("the message on the queue is %s with %+v; want the result's %s with correlation c-1", d.MessageID, env, res.MessageID)
	}
	want, err := acemq.NewPublisher[Order](base, "", "orders").SendResult(ctx, Order{ID: "b"})
	if err != nil || want.Confirmed != res.Confirmed || want.Routed != res.Routed || want.ReturnReason != res.ReturnReason {
		t.Errorf("SendResult = %+v, %v; SendAsync's Wait = %+v; want the same shape", want, err, res)
	}
}

func TestSendAsyncRunsOutcomeHooksWhenTheResultIsKnown(t *testing.T) {
	rec := &outcomeCounter{}
	conn, h, _ := heldConn(t, acemq.WithPublishInterceptor(rec.intercept))
	ctx, cancel := context.WithCancel(context.Background())
	pending, err := acemq.NewPublisher[Order](conn, "", "orders").SendAsync(ctx, Order{ID: "a"})
	if err != nil {
		t.Fatal(err)
	}
	cancel() // the caller's ctx ending does not stop the outcome from being settled
	if n := len(rec.seen()); n != 0 {
		t.Fatalf("%d hooks ran before the confirm, want none", n)
	}
	h.confirm()
	waitFor(t, "the outcome hook, without any Wait", func() bool { return len(rec.seen()) == 1 })
	<-pending.Done()
	got := rec.seen()
	if len(got) != 1 || got[0].Err != nil || !got[0].Result.Confirmed || got[0].RoutingKey != "orders" {
		t.Fatalf("hooks saw %+v, want one confirmed outcome", got)
	}
	if res, err := pending.Wait(context.Background()); err != nil || res.MessageID != got[0].Result.MessageID {
		t.Fatalf("Wait = %+v, %v; want the outcome the hook saw", res, err)
	}
	if n := len(rec.seen()); n != 1 {
		t.Fatalf("%d hooks ran after Wait, want exactly one", n)
	}
}

func TestSendAsyncOutcomeHooksHaveRunWhenWaitReturns(t *testing.T) {
	rec := &outcomeCounter{}
	conn, h, _ := heldConn(t, acemq.WithPublishInterceptor(rec.intercept))
	p := acemq.NewPublisher[Order](conn, "", "orders")
	var pendings []*acemq.Pending
	for i := range 50 {
		pending, err := p.SendAsync(context.Background(), Order{Total: i})
		if err != nil {
			t.Fatal(err)
		}
		pendings = append(pendings, pending)
	}
	h.confirm()
	for i, pending := range pendings {
		if _, err := pending.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := len(rec.seen()); n < i+1 {
			t.Fatalf("Wait of message %d returned with %d hooks run, want at least %d", i, n, i+1)
		}
	}
}

func TestPendingWaitWithAnEndedContextReturnsItsErrorAndKeepsTheResult(t *testing.T) {
	conn, h, _ := heldConn(t)
	pending, err := acemq.NewPublisher[Order](conn, "", "orders").SendAsync(context.Background(), Order{ID: "a"})
	if err != nil {
		t.Fatal(err)
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := pending.Wait(ended); !errors.Is(err, context.Canceled) || res.Confirmed {
		t.Fatalf("Wait(ended ctx) before the confirm = %+v, %v; want context.Canceled", res, err)
	}
	h.confirm()
	<-pending.Done()
	if _, err := pending.Wait(ended); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait(ended ctx) after the confirm = %v, want context.Canceled", err)
	}
	if res, err := pending.Wait(context.Background()); err != nil || !res.Confirmed {
		t.Fatalf("Wait after an ended Wait = %+v, %v; want the confirmed result, not lost", res, err)
	}
}

func TestPendingWaitCalledConcurrentlyReturnsTheSameResult(t *testing.T) {
	conn, h, _ := heldConn(t)
	pending, err := acemq.NewPublisher[Order](conn, "", "orders").SendAsync(context.Background(), Order{ID: "a"})
	if err != nil {
		t.Fatal(err)
	}
	results := make([]acemq.PublishResult, 16)
	errs := make([]error, 16)
	var waiters sync.WaitGroup
	for i := range results {
		waiters.Go(func() { results[i], errs[i] = pending.Wait(context.Background()) })
	}
	h.confirm()
	waiters.Wait()
	for i := range results {
		if errs[i] != nil || results[i] != results[0] || !results[i].Confirmed {
			t.Fatalf("waiter %d got %+v, %v; waiter 0 got %+v", i, results[i], errs[i], results[0])
		}
	}
	if again, err := pending.Wait(context.Background()); err != nil || again != results[0] {
		t.Fatalf("a later Wait = %+v, %v; want %+v", again, err, results[0])
	}
}

func TestSendAsyncFailsAsSendWouldForARefusedMessageAndRunsItsHooks(t *testing.T) {
	rec := &outcomeCounter{}
	refuse := func(_ context.Context, pc *acemq.PublishContext) error {
		if pc.Payload.(Order).Total < 0 {
			return errPolicyRefusal
		}
		return nil
	}
	conn, _, base := heldConn(t, acemq.WithPublishInterceptor(rec.intercept), acemq.WithPublishInterceptor(refuse))
	p := acemq.NewPublisher[Order](conn, "", "orders", acemqimpl.PublishHeaderRules[Order](acemq.HeaderRule{Name: "tenant", Required: true}))
	ctx := context.Background()
	cases := []struct {
		name    string
		payload Order
		opts    []acemq.EnvelopeOption
		want    string
	}{
		{"interceptor refusal", Order{Total: -1}, []acemq.EnvelopeOption{acemq.Header("tenant", "t")}, errPolicyRefusal.Error()},
		{"missing required header", Order{Total: 1}, nil, `requires the header "tenant"`},
	}
	for _, c := range cases {
		pending, err := p.SendAsync(ctx, c.payload, c.opts...)
		sendErr := p.Send(ctx, c.payload, c.opts...)
		if pending != nil || err == nil || !strings.Contains(err.Error(), c.want) || err.Error() != sendErr.Error() {
			t.Errorf("%s: SendAsync = %v, %v; Send = %v; want no Pending and Send's error containing %q", c.name, pending, err, sendErr, c.want)
		}
	}
	if _, err := p.SendAsync(ctx, Order{Total: -1}, acemq.Header("tenant", "t")); err != errPolicyRefusal {
		t.Errorf("an interceptor's refusal = %v, want it unwrapped as Send returns it", err)
	}
	if n := len(rec.seen()); n != 5 {
		t.Errorf("%d outcome hooks ran, want one per refused message (5)", n)
	}
	if n := count(t, base, "orders"); n != 0 {
		t.Errorf("%d messages were published, want none", n)
	}
}

var errPolicyRefusal = errors.New("refused by policy")

func TestSendAsyncWithAPanickingCodecFailsWithTheCodecsPanic(t *testing.T) {
	conn, _, _ := heldConn(t, acemq.WithCodec(panickingCodec{in: "Encode"}))
	pending, err := acemq.NewPublisher[Order](conn, "", "orders").SendAsync(context.Background(), Order{ID: "1"})
	if pending != nil || err == nil || err.Error() != encodePanic {
		t.Fatalf("SendAsync = %v, %v; want %q", pending, err, encodePanic)
	}
}

func TestSendAsyncOnAClosedConnectionFailsWithErrClosed(t *testing.T) {
	conn := connect(t)
	_ = conn.Close()
	if pending, err := acemq.NewPublisher[Order](conn, "", "orders").SendAsync(context.Background(), Order{}); pending != nil || !errors.Is(err, acemq.ErrClosed) {
		t.Fatalf("SendAsync = %v, %v; want ErrClosed", pending, err)
	}
}

func TestSendAsyncOnMemoryDeliversInOrderSettledAtOnce(t *testing.T) {
	conn := ordersConn(t)
	p := acemq.NewPublisher[Order](conn, "", "orders")
	for i := range 20 {
		pending, err := p.SendAsync(context.Background(), Order{Total: i})
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-pending.Done():
		default:
			t.Fatalf("message %d: memory:// knows the outcome once written, but the Pending is not settled", i)
		}
	}
	for i := range 20 {
		d := awaitMessage(t, conn, "orders")
		if want := fmt.Sprintf(`"total":%d`, i); !strings.Contains(string(d.Body), want) {
			t.Fatalf("message %d on the queue is %s, want %s", i, d.Body, want)
		}
	}
}

func TestSendAsyncOnAFullMemoryQueueResolvesWithTheRefusal(t *testing.T) {
	conn := connect(t)
	declare(t, conn, "one", acemq.QueueArg("x-max-length", 1), acemq.QueueArg("x-overflow", "reject-publish"))
	p := acemq.NewPublisher[Order](conn, "", "one")
	for range 2 { // a quorum queue takes the message that goes over
		if _, err := p.SendAsync(context.Background(), Order{}); err != nil {
			t.Fatal(err)
		}
	}
	pending, err := p.SendAsync(context.Background(), Order{})
	if err != nil {
		t.Fatalf("SendAsync of a refused message = %v, want the refusal in its Pending", err)
	}
	var pf *acemq.PublishFailedError
	if _, err := pending.Wait(context.Background()); !errors.Is(err, driver.ErrBrokerRefused) || !errors.As(err, &pf) {
		t.Fatalf("Wait = %v, want a PublishFailedError wrapping ErrBrokerRefused", err)
	}
}

// stalled is a transport without PublishAsync whose Publish waits until
// released, counting the calls in progress.
type stalled struct {
	driver.Transport
	release  chan struct{}
	inFlight atomic.Int64
}

func (s *stalled) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	<-s.release
	return s.Transport.Publish(ctx, exchange, key, msg)
}

// stalledPublisher returns a memory conn with the queue orders, a stalled
// transport over it and an Order publisher to orders through the stall.
func stalledPublisher(t *testing.T) (*acemq.Conn, *stalled, *acemq.Publisher[Order]) {
	t.Helper()
	base := connect(t)
	declare(t, base, "orders")
	st := &stalled{Transport: base.Transport(), release: make(chan struct{})}
	conn, err := acemq.NewConn(st)
	if err != nil {
		t.Fatal(err)
	}
	return base, st, acemq.NewPublisher[Order](conn, "", "orders")
}

func TestSendAsyncBlocksWhileTheWindowIsFull(t *testing.T) {
	base, st, p := stalledPublisher(t)
	pendings := make([]*acemq.Pending, 0, acemq.SendAsyncWindow)
	for i := range acemq.SendAsyncWindow {
		pending, err := p.SendAsync(context.Background(), Order{Total: i})
		if err != nil {
			t.Fatal(err)
		}
		pendings = append(pendings, pending)
	}
	ctx, cancel := context.WithCancel(context.Background())
	blocked := make(chan error, 1)
	go func() {
		_, err := p.SendAsync(ctx, Order{Total: -1})
		blocked <- err
	}()
	select {
	case err := <-blocked:
		t.Fatalf("SendAsync with the window full returned %v, want it to block", err)
	default:
	}
	cancel()
	err := <-blocked
	var pf *acemq.PublishFailedError
	if !errors.Is(err, context.Canceled) || !errors.As(err, &pf) || !strings.Contains(err.Error(), "SendAsyncWindow") {
		t.Fatalf("SendAsync whose ctx ended waiting for a slot = %v, want a PublishFailedError naming the window", err)
	}
	close(st.release)
	for i, pending := range pendings {
		if res, err := pending.Wait(context.Background()); err != nil || !res.Confirmed {
			t.Fatalf("message %d: %+v, %v; want confirmed", i, res, err)
		}
	}
	if n := count(t, base, "orders"); n != acemq.SendAsyncWindow {
		t.Fatalf("%d messages on the queue, want the window's %d and not the cancelled one", n, acemq.SendAsyncWindow)
	}
}

func TestSendAsyncWithoutPublishAsyncWaitsForAFreeSlotThenPublishes(t *testing.T) {
	_, st, p := stalledPublisher(t)
	for i := range acemq.SendAsyncWindow {
		if _, err := p.SendAsync(context.Background(), Order{Total: i}); err != nil {
			t.Fatal(err)
		}
	}
	next := make(chan *acemq.Pending, 1)
	go func() {
		pending, err := p.SendAsync(context.Background(), Order{Total: -1})
		if err != nil {
			t.Error(err)
		}
		next <- pending
	}()
	waitFor(t, "the window's publishes in progress", func() bool { return st.inFlight.Load() == acemq.SendAsyncWindow })
	close(st.release)
	if res, err := (<-next).Wait(context.Background()); err != nil || !res.Confirmed {
		t.Fatalf("the publish that waited for a slot: %+v, %v; want confirmed", res, err)
	}
}

func TestSendAsyncUnroutableMandatoryResolvesWithNoRoute(t *testing.T) {
	conn := connect(t)
	if err := conn.DeclareExchange(context.Background(), "orders.x", "direct"); err != nil {
		t.Fatal(err)
	}
	rec := &outcomeCounter{}
	conn2, err := acemq.NewConn(conn.Transport(), acemq.WithPublishInterceptor(rec.intercept))
	if err != nil {
		t.Fatal(err)
	}
	pending, err := acemq.NewPublisher[Order](conn2, "orders.x", "nobody", acemq.Mandatory[Order]()).SendAsync(context.Background(), Order{})
	if err != nil {
		t.Fatalf("SendAsync = %v, want the return in the Pending", err)
	}
	res, err := pending.Wait(context.Background())
	var pf *acemq.PublishFailedError
	if !errors.Is(err, acemq.ErrUnroutable) || !errors.As(err, &pf) || !pf.Unroutable || res.Routed || !strings.Contains(err.Error(), "NO_ROUTE") {
		t.Fatalf("Wait = %+v, %v; want an unroutable PublishFailedError with NO_ROUTE", res, err)
	}
	if got := rec.seen(); len(got) != 1 || !errors.Is(got[0].Err, acemq.ErrUnroutable) {
		t.Fatalf("hooks saw %+v, want one unroutable outcome", got)
	}
}
