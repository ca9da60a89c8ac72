package acemqtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// streamCases are the behaviour of SendAsync and its Pending.
var streamCases = []behaviourCase{
	{"stream/send-async-keeps-many-in-flight-and-each-wait-returns-its-confirm", sendAsyncStream},
	{"stream/send-async-unroutable-mandatory-resolves-with-no-route", sendAsyncUnroutableMandatory},
	{"stream/send-async-runs-each-outcome-hook-once-without-wait", sendAsyncHooksWithoutWait},
	{"stream/send-async-refusal-is-returned-as-send-returns-it", sendAsyncRefusal},
	{"stream/send-async-to-a-full-reject-publish-queue-resolves-with-the-refusal", sendAsyncFullQueue},
}

// sendAsyncAll sends n numbered orders with SendAsync, failing the subtest
// at the first error.
func sendAsyncAll(k *bkit, p *acemq.Publisher[order], n int) []*acemq.Pending {
	k.t.Helper()
	pendings := make([]*acemq.Pending, n)
	for i := range pendings {
		pending, err := p.SendAsync(k.ctx, order{ID: fmt.Sprint("stream-", i), Qty: i})
		if err != nil {
			k.t.Fatalf("SendAsync %d: %v", i, err)
		}
		pendings[i] = pending
	}
	return pendings
}

func sendAsyncStream(k *bkit) {
	q := k.queue()
	pendings := sendAsyncAll(k, acemq.NewPublisher[order](k.conn, "", q), 300)
	ids := make([]string, len(pendings))
	for i, pending := range pendings {
		res, err := pending.Wait(k.ctx)
		if err != nil || !res.Confirmed || !res.Routed || res.MessageID == "" {
			k.t.Fatalf("Wait %d = %+v, %v; want confirmed and routed", i, res, err)
		}
		ids[i] = res.MessageID
	}
	rec := newRecorder(nil)
	k.consume(nil, q, rec.handle)
	for i := range pendings {
		if m := rec.next(k); m.Envelope.ID != ids[i] || m.Payload.Qty != i {
			k.t.Fatalf("message %d on the queue is %s carrying %d, want %s carrying %d (the order of the calls)", i, m.Envelope.ID, m.Payload.Qty, ids[i], i)
		}
	}
}

func sendAsyncUnroutableMandatory(k *bkit) {
	x := k.exchange("direct")
	p := acemq.NewPublisher[order](k.conn, x, "nobody.listens", acemq.Mandatory[order]())
	pending, err := p.SendAsync(k.ctx, order{ID: "lost"})
	if err != nil {
		k.t.Fatalf("SendAsync of an unroutable mandatory message = %v, want the return in its Pending", err)
	}
	res, err := pending.Wait(k.ctx)
	var failed *acemq.PublishFailedError
	if !errors.Is(err, acemq.ErrUnroutable) || !errors.As(err, &failed) || !failed.Unroutable || res.Routed {
		k.t.Fatalf("Wait = %+v, %v; want an unroutable PublishFailedError and Routed false", res, err)
	}
	_, sendErr := p.SendResult(k.ctx, order{ID: "lost-too"})
	if sendErr == nil || !strings.Contains(err.Error(), "NO_ROUTE") || err.Error() != strings.Replace(sendErr.Error(), failedID(sendErr), failedID(err), 1) {
		k.t.Errorf("Wait's error %q, SendResult's %q; want the same words", err, sendErr)
	}
}

// failedID is the message ID a PublishFailedError names.
func failedID(err error) string {
	var failed *acemq.PublishFailedError
	if errors.As(err, &failed) {
		return failed.MessageID
	}
	return ""
}

func sendAsyncHooksWithoutWait(k *bkit) {
	var mu sync.Mutex
	seen := map[string]int{}
	conn := k.open(acemq.WithPublishInterceptor(func(_ context.Context, c *acemq.PublishContext) error {
		c.OnOutcome(func(_ context.Context, o acemq.PublishOutcome) {
			mu.Lock()
			defer mu.Unlock()
			if o.Err == nil && o.Result.Confirmed {
				seen[o.Envelope.ID]++
			}
		})
		return nil
	}))
	q := k.queue()
	pendings := sendAsyncAll(k, acemq.NewPublisher[order](conn, "", q), 100)
	hooked := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(seen)
	}
	k.eventually("an outcome hook for every message, with no Wait", func() bool { return hooked() == len(pendings) })
	for _, pending := range pendings {
		res, err := pending.Wait(k.ctx)
		if err != nil {
			k.t.Fatal(err)
		}
		mu.Lock()
		n := seen[res.MessageID]
		mu.Unlock()
		if n != 1 {
			k.t.Fatalf("the hook saw message %s confirmed %d times, want once", res.MessageID, n)
		}
	}
}

func sendAsyncRefusal(k *bkit) {
	conn := openRefusingNegatives(k)
	q := k.queue()
	p := acemq.NewPublisher[order](conn, "", q, publishHeaderRules[order](acemq.HeaderRule{Name: "tenant", Required: true}))
	if pending, err := p.SendAsync(k.ctx, order{Qty: -1}, acemq.Header("tenant", "t")); err != errPolicy || pending != nil {
		k.t.Errorf("SendAsync refused by an interceptor = %v, %v; want its error itself and no Pending", pending, err)
	}
	if _, err := p.SendAsync(k.ctx, order{Qty: 1}); err == nil || !strings.Contains(err.Error(), `requires the header "tenant"`) {
		k.t.Errorf("SendAsync without a required header = %v, want the refusal", err)
	}
	if _, err := p.SendAsync(k.ctx, order{Qty: 1}, acemq.Header("tenant", "t"), acemq.Header("odd", struct{}{})); err == nil || !strings.Contains(err.Error(), "cannot travel in an AMQP table") {
		k.t.Errorf("SendAsync with a header AMQP cannot carry = %v, want the refusal", err)
	}
	pending, err := p.SendAsync(k.ctx, order{ID: "fine", Qty: 1}, acemq.Header("tenant", "t"))
	if err != nil {
		k.t.Fatal(err)
	}
	if _, err := pending.Wait(k.ctx); err != nil {
		k.t.Fatal(err)
	}
	k.eventually("the accepted message", func() bool { return k.count(q) == 1 })
}

func sendAsyncFullQueue(k *bkit) {
	q := k.queue(acemq.QueueArg("x-max-length", 1), acemq.QueueArg("x-overflow", "reject-publish"))
	k.send(q, order{ID: "fits"})
	k.send(q, order{ID: "goes-over"}) // a quorum queue takes the message that goes over
	pending, err := acemq.NewPublisher[order](k.conn, "", q).SendAsync(k.ctx, order{ID: "spills"})
	if err != nil {
		k.t.Fatalf("SendAsync to a full queue = %v, want the refusal in its Pending", err)
	}
	var failed *acemq.PublishFailedError
	if _, err := pending.Wait(k.ctx); !errors.Is(err, acemq.ErrBrokerRefused) || !errors.As(err, &failed) || failed.Unroutable {
		k.t.Errorf("Wait = %v, want a PublishFailedError wrapping ErrBrokerRefused", err)
	}
}
