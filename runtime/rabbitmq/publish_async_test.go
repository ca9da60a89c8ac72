package rabbitmq

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// asyncOrder is the payload the SendAll tests publish.
type asyncOrder struct {
	N int `json:"n"`
}

// orders returns n orders numbered 0..n-1.
func orders(n int) []asyncOrder {
	out := make([]asyncOrder, n)
	for i := range out {
		out[i] = asyncOrder{N: i}
	}
	return out
}

// asyncConn is an acemq connection over tr; closing it is left to tr's cleanup.
func asyncConn(t *testing.T, tr *Transport, opts ...acemq.ConnOption) *acemq.Conn {
	t.Helper()
	conn, err := acemq.NewConn(tr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// declared declares a fresh classic queue, deleted at cleanup.
func declared(t *testing.T, tr *Transport, prefix string) string {
	t.Helper()
	q := newCleaner(t).queue(unique(prefix))
	if err := tr.DeclareQueue(ctxT(t), q, acemq.QueueSpec{Durable: true}); err != nil {
		t.Fatal(err)
	}
	return q
}

// slotsFree waits until every MaxOutstandingPublishes slot is free again.
func slotsFree(t *testing.T, tr *Transport) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(tr.window.slots) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d window slots still held", len(tr.window.slots))
		}
		time.Sleep(time.Millisecond)
	}
}

func TestSendAllThroughRabbitMQPutsTheBatchOnTheQueueInPayloadOrder(t *testing.T) {
	tr := openTransport(t)
	q := declared(t, tr, "async-order")
	results, err := acemq.NewPublisher[asyncOrder](asyncConn(t, tr), "", q).SendAll(ctxT(t), orders(300))
	if err != nil || len(results) != 300 {
		t.Fatalf("%d results, %v", len(results), err)
	}
	box := newInbox()
	sub, err := tr.Consume(ctxT(t), q, acemq.ConsumeSpec{Prefetch: 500}, func(d acemq.Delivery) { _ = d.Ack(); box.deliver(d) })
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	for i, r := range results {
		d := box.next(t)
		if !r.Confirmed || d.MessageID != r.MessageID || string(d.Body) != fmt.Sprintf(`{"n":%d}`, i) {
			t.Fatalf("message %d on the queue is %s %s; payload %d was %+v", i, d.MessageID, d.Body, i, r)
		}
	}
}

func TestPipelinedMandatoryMessagesEachGetTheirOwnReturnFarBeyondTheUnclaimedBound(t *testing.T) {
	tr, c := openTransport(t), newCleaner(t)
	ctx, x, q := ctxT(t), c.exchange(unique("async-returns")), declared(t, tr, "async-returns")
	if err := tr.DeclareExchange(ctx, x, acemq.ExchangeSpec{Kind: "direct"}); err != nil {
		t.Fatal(err)
	}
	if err := tr.Bind(ctx, q, x, "in"); err != nil {
		t.Fatal(err)
	}
	n := 5 * maxUnclaimedReturns
	confs := make([]acemq.Confirmation, n)
	for i := range confs {
		key := map[bool]string{true: "nowhere", false: "in"}[i%2 == 0]
		conf, err := tr.PublishAsync(ctx, x, key, acemq.Outbound{MessageID: fmt.Sprint("m", i), Mandatory: true})
		if err != nil {
			t.Fatal(err)
		}
		confs[i] = conf
	}
	for i, conf := range confs {
		res, err := conf.Wait(ctx)
		if astray := i%2 == 0; err != nil || !res.Confirmed || res.Routed == astray || astray && res.ReturnReason != "312 NO_ROUTE" {
			t.Fatalf("message %d: %+v, %v", i, res, err)
		}
	}
	tr.pubMu.Lock()
	r := tr.pubs[mainLane].returns
	tr.pubMu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.expected) != 0 || len(r.kept) != 0 {
		t.Fatalf("%d expectations and %d set-aside returns left over", len(r.expected), len(r.kept))
	}
}

func TestSendAllThroughRabbitMQGivesAnUnroutableMessageInsideTheBatchItsOwnReturn(t *testing.T) {
	tr := openTransport(t)
	q := declared(t, tr, "async-mandatory")
	astray := func(_ context.Context, c *acemq.PublishContext) error {
		if c.Payload.(asyncOrder).N == 7 {
			c.RoutingKey = unique("nowhere")
		}
		return nil
	}
	pub := acemq.NewPublisher[asyncOrder](asyncConn(t, tr, acemq.WithPublishInterceptor(astray)), "", q, acemq.Mandatory[asyncOrder]())
	results, err := pub.SendAll(ctxT(t), orders(200))
	var be *acemq.BatchPublishFailedError
	if !errors.As(err, &be) || be.Failed != 1 || !errors.Is(be.First, acemq.ErrUnroutable) {
		t.Fatalf("got %v; want payload 7 alone unroutable", err)
	}
	for i, r := range results {
		if r.Routed == (i == 7) || !r.Confirmed {
			t.Fatalf("payload %d: %+v", i, r)
		}
	}
	if n, err := tr.MessageCount(ctxT(t), q); err != nil || n != 199 {
		t.Fatalf("MessageCount = %d, %v; want 199", n, err)
	}
}

func TestSendAllThroughAWindowOfOneConfirmsEveryMessage(t *testing.T) {
	tr := openTransport(t, MaxOutstandingPublishes(1))
	q := declared(t, tr, "async-window")
	results, err := acemq.NewPublisher[asyncOrder](asyncConn(t, tr), "", q).SendAll(ctxT(t), orders(50))
	if err != nil || len(results) != 50 {
		t.Fatalf("%d results, %v", len(results), err)
	}
	for i, r := range results {
		if !r.Confirmed {
			t.Fatalf("payload %d not confirmed: %+v", i, r)
		}
	}
	if n, err := tr.MessageCount(ctxT(t), q); err != nil || n != 50 {
		t.Fatalf("MessageCount = %d, %v; want 50", n, err)
	}
	slotsFree(t, tr)
}

func TestPublishAsyncWhoseContextEndsWaitingForAWindowSlotFailsNamingTheWindow(t *testing.T) {
	tr := openTransport(t, MaxOutstandingPublishes(1))
	q := declared(t, tr, "async-full")
	if err := tr.window.acquire(ctxT(t)); err != nil { // an unconfirmed publish holds the only slot
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(ctxT(t))
	type outcome struct {
		conf acemq.Confirmation
		err  error
	}
	done := make(chan outcome, 1)
	go func() {
		conf, err := tr.PublishAsync(ctx, "", q, acemq.Outbound{MessageID: "late"})
		done <- outcome{conf, err}
	}()
	for tr.window.waiting.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	got := <-done
	if got.conf != nil || !errors.Is(got.err, context.Canceled) || !strings.Contains(got.err.Error(), "MaxOutstandingPublishes") {
		t.Fatalf("PublishAsync = %v, %v; want no confirmation and a cancelled wait naming MaxOutstandingPublishes", got.conf, got.err)
	}
	tr.window.release()
	conf, err := tr.PublishAsync(ctxT(t), "", q, acemq.Outbound{MessageID: "next"})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := conf.Wait(ctxT(t)); err != nil || !res.Confirmed {
		t.Fatalf("the next publish: %+v, %v", res, err)
	}
	if n, err := tr.MessageCount(ctxT(t), q); err != nil || n != 1 {
		t.Fatalf("MessageCount = %d, %v; want only the next message", n, err)
	}
}

func TestPipelinedPublishToAMissingExchangeIsRefused(t *testing.T) {
	tr := openTransport(t)
	q := declared(t, tr, "async-lost")
	conf, err := tr.PublishAsync(ctxT(t), unique("missing"), "k", acemq.Outbound{MessageID: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conf.Wait(ctxT(t)); !errors.Is(err, ErrBrokerRefused) || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Fatalf("Wait = %v, want ErrBrokerRefused with the broker's NOT_FOUND", err)
	}
	conf, err = tr.PublishAsync(ctxT(t), "", q, acemq.Outbound{MessageID: "next"})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := conf.Wait(ctxT(t)); err != nil || !res.Confirmed {
		t.Fatalf("the publish after the channel error: %+v, %v", res, err)
	}
	slotsFree(t, tr)
}

func TestPipelinedPublishesAcrossAConnectionDropNeverSucceedSilently(t *testing.T) {
	ev := newEvents()
	tr := openTransport(t, OnRecovery(ev.record))
	q := declared(t, tr, "async-drop")
	ctx := ctxT(t)
	confs := make([]acemq.Confirmation, 500)
	for i := range confs {
		conf, err := tr.PublishAsync(ctx, "", q, acemq.Outbound{MessageID: fmt.Sprint("m", i), Persistent: true})
		if err != nil {
			t.Fatal(err)
		}
		confs[i] = conf
	}
	tr.dropConnection()
	var confirmed []string
	for i, conf := range confs {
		res, err := conf.Wait(ctx)
		switch {
		case err == nil && res.Confirmed:
			confirmed = append(confirmed, res.MessageID)
		case !errors.Is(err, ErrConfirmLost):
			t.Fatalf("message %d: %+v, %v; want confirmed or ErrConfirmLost", i, res, err)
		}
	}
	t.Logf("%d of 500 confirmed before the drop, the rest lost", len(confirmed))
	ev.waitFor(t, RecoveryRecovered)
	slotsFree(t, tr)
	onQueue := drain(t, tr, q)
	for _, id := range confirmed {
		if !onQueue[id] {
			t.Errorf("message %s was confirmed but is not on the queue", id)
		}
	}
}

func TestConfirmationWaitedForAgainAfterItsContextEndedReturnsTheBrokersAnswer(t *testing.T) {
	tr := openTransport(t)
	conf, err := tr.PublishAsync(ctxT(t), "", unique("nowhere"), acemq.Outbound{MessageID: "m", Mandatory: true})
	if err != nil {
		t.Fatal(err)
	}
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := conf.Wait(gone); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with an ended ctx = %v, want the answer or context.Canceled", err)
	}
	for range 2 {
		if res, err := conf.Wait(ctxT(t)); err != nil || !res.Confirmed || res.Routed || res.ReturnReason != "312 NO_ROUTE" {
			t.Fatalf("Wait = %+v, %v; want confirmed and returned with 312 NO_ROUTE", res, err)
		}
	}
}

func TestPublishAsyncWithoutConfirmsIsSettledOnceWritten(t *testing.T) {
	tr := openTransport(t, WithoutConfirms())
	q := declared(t, tr, "async-unconfirmed")
	conf, err := tr.PublishAsync(ctxT(t), "", q, acemq.Outbound{MessageID: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := conf.Wait(ctxT(t)); err != nil || res.Confirmed || !res.Routed || res.MessageID != "m" {
		t.Fatalf("Wait = %+v, %v; want written, not confirmed", res, err)
	}
}

func TestAnExpectedReturnOutlivesMoreUnclaimedReturnsThanTheBoundAndIsClaimedOnce(t *testing.T) {
	in := make(chan amqp.Return)
	r := newReturnLog(in)
	r.expect("mine")
	r.expect("routed")
	in <- amqp.Return{MessageId: "mine", ReplyCode: 312, ReplyText: "NO_ROUTE"}
	for i := range 2 * maxUnclaimedReturns {
		in <- amqp.Return{MessageId: fmt.Sprint("other", i), ReplyCode: 312, ReplyText: "NO_ROUTE"}
	}
	if reason, ok := r.claim("mine"); !ok || reason != "312 NO_ROUTE" {
		t.Fatalf("claim(mine) = %q, %v; want 312 NO_ROUTE", reason, ok)
	}
	if _, ok := r.claim("routed"); ok {
		t.Fatal("a message that did not come back was reported returned")
	}
	in <- amqp.Return{MessageId: "routed", ReplyCode: 312, ReplyText: "NO_ROUTE"} // no longer expected
	close(in)
	<-r.done
	if len(r.expected) != 0 || len(r.kept) != 0 || len(r.order) != maxUnclaimedReturns {
		t.Fatalf("%d expected, %d kept, %d unclaimed; want 0, 0 and the bound", len(r.expected), len(r.kept), len(r.order))
	}
}

func TestAForgottenExpectationLeavesNothingBehind(t *testing.T) {
	r := newReturnLog(make(chan amqp.Return))
	r.expect("unwritten")
	r.forget("unwritten")
	if _, ok := r.claim("unwritten"); ok || len(r.expected) != 0 {
		t.Fatalf("expected = %v after forget", r.expected)
	}
}

func TestPublishAsyncWithoutConfirmsStillConfirmsAMandatoryMessageAndReportsItsReturn(t *testing.T) {
	tr := openTransport(t, WithoutConfirms())
	conf, err := tr.PublishAsync(ctxT(t), "", unique("nowhere"), acemq.Outbound{MessageID: "m", Mandatory: true})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := conf.Wait(ctxT(t)); err != nil || !res.Confirmed || res.Routed || res.ReturnReason != "312 NO_ROUTE" {
		t.Fatalf("Wait = %+v, %v; want confirmed on the mandatory lane and returned with 312 NO_ROUTE", res, err)
	}
	slotsFree(t, tr)
}

func TestSendAllDuringABlockPausesThenEveryPendingSlotIsFreedOnceItLifts(t *testing.T) {
	url, port := faultNode(t)
	ev, c := newEvents(), newCleanerAt(t, url)
	ctx := ctxT(t)
	tr, err := Dial(ctx, url, OnRecovery(ev.record), testDelay)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	q := c.queue(unique("async-blocked"))
	if err := tr.DeclareQueue(ctx, q, acemq.QueueSpec{Durable: true}); err != nil {
		t.Fatal(err)
	}
	pub := acemq.NewPublisher[asyncOrder](asyncConn(t, tr), "", q)
	blockNode(t, port)
	paused, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	_, err = pub.SendAll(paused, orders(20))
	var be *acemq.BatchPublishFailedError
	if !errors.As(err, &be) || be.Failed != 20 {
		t.Fatalf("SendAll during the alarm: %v; want all 20 failed", err)
	}
	for i, e := range be.Errors { // written before connection.blocked arrived, or paused unwritten: never both
		if acemq.IsBlocked(e) == errors.Is(e, acemq.ErrOutcomeUnknown) {
			t.Fatalf("message %d: %v; want either paused (IsBlocked) or written and unconfirmed (ErrOutcomeUnknown)", i, e)
		}
	}
	ev.waitFor(t, RecoveryBlocked)
	rabbitmqctl(t, port, "set_vm_memory_high_watermark", "0.4")
	ev.waitFor(t, RecoveryUnblocked)
	slotsFree(t, tr)
	if results, err := pub.SendAll(ctx, orders(20)); err != nil || !results[19].Confirmed {
		t.Fatalf("SendAll after the block lifted: %v", err)
	}
}
