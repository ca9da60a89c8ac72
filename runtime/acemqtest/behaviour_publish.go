package acemqtest

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

var publishBehaviour = []behaviourCase{
	{"publish/interceptor-refusal-is-returned-unwrapped", publishInterceptorRefusal},
	{"publish/mandatory-unroutable-reaches-no-queue-with-no-route", mandatoryUnroutable},
	{"publish/send-all-returns-results-in-payload-order", sendAllOrder},
	{"publish/send-all-reports-a-partial-failure", sendAllPartial},
	{"publish/a-header-amqp-cannot-carry-fails-the-send", unsupportedHeader},
	{"publish/a-full-reject-publish-queue-fails-the-send", fullQueueRefuses},
}

var errPolicy = errors.New("refused by policy")

// openRefusingNegatives opens a connection whose publish interceptor refuses
// an order of negative Qty with errPolicy.
func openRefusingNegatives(k *bkit) *acemq.Conn {
	return k.open(acemq.WithPublishInterceptor(func(_ context.Context, c *acemq.PublishContext) error {
		if c.Payload.(order).Qty < 0 {
			return errPolicy
		}
		return nil
	}))
}

func publishInterceptorRefusal(k *bkit) {
	conn := openRefusingNegatives(k)
	q := k.queue()
	err := acemq.NewPublisher[order](conn, "", q).Send(k.ctx, order{ID: "negative", Qty: -1})
	if err != errPolicy {
		k.t.Errorf("Send = %v (%T), want the interceptor's error itself", err, err)
	}
	if err := acemq.NewPublisher[order](conn, "", q).Send(k.ctx, order{ID: "fine", Qty: 1}); err != nil {
		k.t.Fatal(err)
	}
	k.eventually("the accepted message", func() bool { return k.count(q) == 1 })
	if d := k.pull(q); d.MessageID == "" || !strings.Contains(string(d.Body), "fine") {
		k.t.Errorf("the queue holds %s, want only the message the interceptor let through", d.Body)
	}
}

func mandatoryUnroutable(k *bkit) {
	x := k.exchange("direct")
	p := acemq.NewPublisher[order](k.conn, x, "nobody.listens", acemq.Mandatory[order]())
	res, err := p.SendResult(k.ctx, order{ID: "lost"})
	for _, want := range []string{"reached no queue", "NO_ROUTE", x} {
		if err == nil || !strings.Contains(err.Error(), want) {
			k.t.Errorf("unroutable mandatory Send = %v, want an error containing %q", err, want)
		}
	}
	if !errors.Is(err, acemq.ErrUnroutable) || res.Routed {
		k.t.Errorf("error %v matches ErrUnroutable = %v, result %+v; want a match and Routed false", err, errors.Is(err, acemq.ErrUnroutable), res)
	}
	if err := acemq.NewPublisher[order](k.conn, x, "nobody.listens").Send(k.ctx, order{ID: "dropped"}); err != nil {
		k.t.Errorf("a non-mandatory unroutable Send = %v, want nil (the broker drops it)", err)
	}
}

func payloads(n int) []order {
	out := make([]order, n)
	for i := range out {
		out[i] = order{ID: fmt.Sprint("batch-", i), Qty: i}
	}
	return out
}

func sendAllOrder(k *bkit) {
	q := k.queue()
	results, err := acemq.NewPublisher[order](k.conn, "", q).SendAll(k.ctx, payloads(10))
	if err != nil || len(results) != 10 {
		k.t.Fatalf("SendAll = %d results, %v; want 10, nil", len(results), err)
	}
	rec := newRecorder(nil)
	k.consume(nil, q, rec.handle)
	byID := map[string]int{}
	for range 10 {
		m := rec.next(k)
		byID[m.Envelope.ID] = m.Payload.Qty
	}
	for i, r := range results {
		if qty, ok := byID[r.MessageID]; !ok || qty != i || !r.Confirmed || !r.Routed {
			k.t.Errorf("result %d = %+v carried payload %d (found %v), want payload %d, confirmed and routed", i, r, qty, ok, i)
		}
	}
}

func sendAllPartial(k *bkit) {
	conn := k.open(acemq.WithPublishInterceptor(func(_ context.Context, c *acemq.PublishContext) error {
		if c.Payload.(order).Qty%2 == 1 {
			return fmt.Errorf("odd %d", c.Payload.(order).Qty)
		}
		return nil
	}))
	q := k.queue()
	results, err := acemq.NewPublisher[order](conn, "", q).SendAll(k.ctx, payloads(6))
	var batch *acemq.BatchPublishFailedError
	if !errors.As(err, &batch) || batch.Total != 6 || batch.Failed != 3 || batch.Confirmed != 3 || len(results) != 6 {
		k.t.Fatalf("SendAll = %v, %d results; want a BatchPublishFailedError of 3 failed, 3 confirmed", err, len(results))
	}
	if !strings.HasPrefix(err.Error(), "3 of 6 messages were not confirmed; 3 were. The first failure was: odd 1") {
		k.t.Errorf("error %q, want the family's partial-failure words with the first failure", err)
	}
	for i, r := range results {
		if r.Confirmed != (i%2 == 0) {
			k.t.Errorf("result %d = %+v, want confirmed only for even payloads", i, r)
		}
	}
	k.eventually("the three accepted messages", func() bool { return k.count(q) == 3 })
}

func unsupportedHeader(k *bkit) {
	q := k.queue()
	err := acemq.NewPublisher[order](k.conn, "", q).Send(k.ctx, order{ID: "odd"}, acemq.Header("odd", struct{}{}))
	if err == nil || !strings.Contains(err.Error(), "cannot travel in an AMQP table") || !strings.Contains(err.Error(), "odd") {
		k.t.Errorf("Send with a struct header = %v, want a refusal naming the header", err)
	}
	k.send(q, order{ID: "plain"})
	if n := k.count(q); n != 1 {
		k.t.Errorf("the queue holds %d messages, want only the plain one", n)
	}
}

func fullQueueRefuses(k *bkit) {
	q := k.queue(acemq.QueueArg("x-max-length", 1), acemq.QueueArg("x-overflow", "reject-publish"))
	k.send(q, order{ID: "fits"})
	k.send(q, order{ID: "goes-over"}) // a quorum queue takes the message that goes over
	_, err := acemq.NewPublisher[order](k.conn, "", q).SendResult(k.ctx, order{ID: "spills"})
	var failed *acemq.PublishFailedError
	if !errors.Is(err, acemq.ErrBrokerRefused) || !errors.As(err, &failed) || failed.Unroutable {
		k.t.Errorf("Send to a full reject-publish queue = %v, want a PublishFailedError wrapping ErrBrokerRefused", err)
	}
}
