package patterns_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

func TestIdempotencySuppressesADuplicateDeliveryOfTheSameMessageID(t *testing.T) {
	conn := mwConnect(t)
	rec, c := newSettlements(), &calls{}
	store := patterns.NewInMemoryIdempotencyStore(0)
	h := patterns.Chain(c.handler(accept), rec.middleware, patterns.WithIdempotency[order](store))
	mwConsume(t, conn, "orders", h)
	mwSend(t, conn, "orders", order{ID: "o-1"}, acemq.MessageID("m-1"))
	mwSend(t, conn, "orders", order{ID: "o-1"}, acemq.MessageID("m-1"))
	first, second := rec.next(t), rec.next(t)
	if first.Outcome != semconv.OutcomeAcked || second.Outcome != semconv.OutcomeAcked {
		t.Errorf("settled %s and %s, want both acked", first.Outcome, second.Outcome)
	}
	if got := c.seen(); len(got) != 1 {
		t.Errorf("the handler ran %d times, want once", len(got))
	}
}

func TestAbandonedClaimExpiresAndTheRedeliveryRunsTheHandlerWithoutSpendingAnAttempt(t *testing.T) {
	conn := mwConnect(t)
	rec, c := newSettlements(), &calls{}
	store := patterns.NewInMemoryIdempotencyStore(time.Hour)
	store.SetClaimTimeout(20 * time.Millisecond)
	if ok, err := store.Claim(context.Background(), "m-1"); !ok || err != nil { // a consumer that died holding it
		t.Fatalf("claim: %v %v", ok, err)
	}
	h := patterns.Chain(c.handler(accept), rec.middleware,
		patterns.WithIdempotency[order](store, patterns.InProgressDelay(2*time.Millisecond)))
	mwConsume(t, conn, "orders", h, acemq.RetryWith(acemq.FixedRetry(1, time.Millisecond)))
	mwSend(t, conn, "orders", order{ID: "o-1"}, acemq.MessageID("m-1"))
	waits := 0
	for s := rec.next(t); s.Outcome != semconv.OutcomeAcked; s = rec.next(t) {
		if s.Action != acemq.ActionInProgress || s.Outcome != semconv.OutcomeInProgress ||
			s.Delay != 2*time.Millisecond || s.Envelope.Attempt != 1 {
			t.Fatalf("while the claim was live the message settled %+v", s)
		}
		waits++
	}
	if waits == 0 || !slices.Equal(c.seen(), []int{1}) {
		t.Errorf("%d in-progress waits, handler saw attempts %v; want at least one wait, then attempt 1 once", waits, c.seen())
	}
	if n := mwCount(t, conn, "orders.dlq") + mwCount(t, conn, "orders.parked"); n != 0 {
		t.Errorf("%d messages set aside", n)
	}
}

func TestFailedHandlerReleasesItsClaimSoTheRetryRunsIt(t *testing.T) {
	conn := mwConnect(t)
	rec, c := newSettlements(), &calls{}
	store := patterns.NewInMemoryIdempotencyStore(0)
	h := patterns.Chain(c.handler(func(n int) acemq.Ack {
		if n == 1 {
			return acemq.Retry(errors.New("ledger down"))
		}
		return acemq.Accept()
	}), rec.middleware, patterns.WithIdempotency[order](store))
	mwConsume(t, conn, "orders", h, acemq.RetryWith(acemq.FixedRetry(2, time.Millisecond)))
	mwSend(t, conn, "orders", order{ID: "o-1"}, acemq.MessageID("m-1"))
	if first, second := rec.next(t), rec.next(t); first.Outcome != "retried" || second.Outcome != "acked" {
		t.Errorf("settled %s then %s, want retried then acked", first.Outcome, second.Outcome)
	}
	if !slices.Equal(c.seen(), []int{1, 2}) {
		t.Errorf("handler saw attempts %v, want [1 2]", c.seen())
	}
	if res, _ := store.TryClaim(context.Background(), "m-1"); res != patterns.Duplicate {
		t.Errorf("after the accepted retry the key is %s, want duplicate", res)
	}
}

func TestIdempotentByRejectsAnEmptyKeyFatally(t *testing.T) {
	c := &calls{}
	store := patterns.NewInMemoryIdempotencyStore(0)
	h := patterns.Chain(c.handler(accept),
		patterns.IdempotentBy(store, func(m acemq.Message[order]) string { return m.Payload.ID }))
	ack := h(context.Background(), acemq.Message[order]{Envelope: acemq.Envelope{ID: "m-1"}})
	if ack.String() != "reject" || !acemq.IsFatal(ack.Err()) || len(c.seen()) != 0 {
		t.Fatalf("got %s (%v) after %d runs, want a fatal reject without running", ack, ack.Err(), len(c.seen()))
	}
	if got := ack.Err().Error(); got != "acemq: message m-1 produced an empty idempotency key" {
		t.Errorf("error %q", got)
	}
}

func TestIdempotentByKeysOnWhatTheKeyFunctionSays(t *testing.T) {
	c := &calls{}
	store := patterns.NewInMemoryIdempotencyStore(0)
	h := patterns.Chain(c.handler(accept),
		patterns.IdempotentBy(store, func(m acemq.Message[order]) string { return "order:" + m.Payload.ID }))
	h(context.Background(), message("o-1"))
	h(context.Background(), acemq.Message[order]{Payload: order{ID: "o-1"}, Envelope: acemq.Envelope{ID: "other-id"}})
	if len(c.seen()) != 1 {
		t.Errorf("the handler ran %d times for one order id, want once", len(c.seen()))
	}
	if res, _ := store.TryClaim(context.Background(), "order:o-1"); res != patterns.Duplicate {
		t.Errorf("key order:o-1 is %s, want duplicate", res)
	}
}

func TestALiveClaimAnswersInProgressWithTheConfiguredDelay(t *testing.T) {
	c := &calls{}
	store := patterns.NewInMemoryIdempotencyStore(0)
	_, _ = store.Claim(context.Background(), "m-1")
	h := patterns.Chain(c.handler(accept), patterns.WithIdempotency[order](store, patterns.InProgressDelay(7*time.Millisecond)))
	ack := h(context.Background(), message("m-1"))
	if !ack.IsInProgress() || ack.Delay() != 7*time.Millisecond || len(c.seen()) != 0 {
		t.Errorf("got %s after %s with %d runs, want in_progress after 7ms without running", ack, ack.Delay(), len(c.seen()))
	}
	ack = patterns.Chain(c.handler(accept), patterns.WithIdempotency[order](store))(context.Background(), message("m-1"))
	if ack.Delay() != acemq.DefaultInProgressDelay {
		t.Errorf("without the option the wait is %s, want %s", ack.Delay(), acemq.DefaultInProgressDelay)
	}
}

func TestARejectedMessageReleasesItsClaim(t *testing.T) {
	store := patterns.NewInMemoryIdempotencyStore(0)
	h := patterns.Chain(func(context.Context, acemq.Message[order]) acemq.Ack {
		return acemq.Reject(errors.New("bad"))
	}, patterns.WithIdempotency[order](store))
	if ack := h(context.Background(), message("m-1")); ack.String() != "reject" {
		t.Fatalf("got %s, want the handler's reject", ack)
	}
	if res, _ := store.TryClaim(context.Background(), "m-1"); res != patterns.Claimed {
		t.Errorf("after a reject the key is %s, want claimable", res)
	}
}

func TestAPanickingHandlerReleasesItsClaimAndPanicsOn(t *testing.T) {
	store := patterns.NewInMemoryIdempotencyStore(0)
	h := patterns.Chain(func(context.Context, acemq.Message[order]) acemq.Ack { panic("boom") },
		patterns.WithRecovery[order](), patterns.WithIdempotency[order](store))
	if ack := h(context.Background(), message("m-1")); ack.String() != "reject" {
		t.Fatalf("got %s, want the recovered reject", ack)
	}
	if res, _ := store.TryClaim(context.Background(), "m-1"); res != patterns.Claimed {
		t.Errorf("after a panic the key is %s, want claimable", res)
	}
}

func TestDefaultClaimTimeoutIsTheFamilysFiveMinutes(t *testing.T) {
	if patterns.DefaultClaimTimeout != 5*time.Minute {
		t.Errorf("DefaultClaimTimeout %s", patterns.DefaultClaimTimeout)
	}
}
