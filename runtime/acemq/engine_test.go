package acemq_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

func TestRoundTripDeliversThePayloadWithEnvelopeDefaults(t *testing.T) {
	conn := connect(t, acemq.WithOrigin("billing@test"))
	declare(t, conn, "orders")
	got := make(chan acemq.Message[Order], 1)
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		got <- m
		return acemq.Accept()
	})
	send(t, conn, "orders", Order{ID: "o-1", Total: 42})
	m := <-got
	env := m.Envelope
	if m.Payload != (Order{ID: "o-1", Total: 42}) {
		t.Errorf("payload %+v", m.Payload)
	}
	if env.Type != "orders" || env.Attempt != 1 || env.Version != 1 || env.CorrelationID != env.ID ||
		env.Origin != "billing@test" || env.Headers == nil || len(env.ID) != 36 {
		t.Errorf("envelope %+v", env)
	}
	if m.ContentType != "application/json" || m.RoutingKey != "orders" || m.Redelivered {
		t.Errorf("message %+v", m)
	}
	waitFor(t, "the ack", func() bool { return count(t, conn, "orders") == 0 })
}

func TestRetryRepublishesWithAttemptsOneTwoThreeThenDeadLettersExhausted(t *testing.T) {
	conn := ordersConn(t)
	var attempts recorder[string]
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		attempts.add(fmt.Sprintf("%d/%v", m.Envelope.Attempt, m.Redelivered))
		return acemq.Retry(errors.New("the ledger is down"))
	}, acemq.RetryWith(acemq.FixedRetry(3, time.Millisecond)))
	send(t, conn, "orders", Order{ID: "o-1"})
	d := awaitMessage(t, conn, "orders.dlq")
	if want := []string{"1/false", "2/false", "3/false"}; !slices.Equal(attempts.all(), want) {
		t.Errorf("attempts %v, want %v (republished, never redelivered)", attempts.all(), want)
	}
	if got := reasonOn(d); got != "exhausted 3 attempts: the ledger is down" {
		t.Errorf("reason %q", got)
	}
}

func TestNoRetryDeadLettersWithTheSingularReason(t *testing.T) {
	conn := answerEach(t, acemq.Retry(errors.New("nope")), acemq.RetryWith(acemq.NoRetry()))
	wantReason(t, conn, "orders.dlq", "exhausted 1 attempt: nope")
}

func TestRetryOfAFatalErrorDeadLettersWithoutRetrying(t *testing.T) {
	conn := ordersConn(t)
	var calls recorder[int]
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		calls.add(m.Envelope.Attempt)
		return acemq.Retry(acemq.Fatal(errors.New("no such customer")))
	}, acemq.RetryWith(acemq.FixedRetry(5, time.Millisecond)))
	send(t, conn, "orders", Order{})
	d := awaitMessage(t, conn, "orders.dlq")
	if got := reasonOn(d); got != "the handler reported an unprocessable message: no such customer" {
		t.Errorf("reason %q", got)
	}
	if calls.len() != 1 {
		t.Errorf("handled %d times, want once", calls.len())
	}
}

func TestRejectDeadLettersWithTheHandlersReasonAndKeepsTheEnvelope(t *testing.T) {
	conn := ordersConn(t)
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		return acemq.Reject(errors.New("total is negative"))
	})
	send(t, conn, "orders", Order{ID: "o-9"}, acemq.Header("x-tenant", "acme"))
	d := awaitMessage(t, conn, "orders.dlq")
	env := acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID)
	if env.Error != "the handler rejected it: total is negative" || env.Headers["x-tenant"] != "acme" || env.Attempt != 1 {
		t.Errorf("dead letter envelope %+v", env)
	}
	if string(d.Body) != `{"id":"o-9","total":0}` || d.ContentType != "application/json" {
		t.Errorf("the dead letter carries the original bytes, got %s %q", d.Body, d.ContentType)
	}
}

func TestRejectWithoutAnErrorSaysNoReasonGiven(t *testing.T) {
	conn := answerEach(t, acemq.Reject(nil))
	wantReason(t, conn, "orders.dlq", "the handler rejected it: no reason given")
}

func TestParkSetsTheMessageAsideToTheParkedQueue(t *testing.T) {
	conn := answerEach(t, acemq.Park(errors.New("needs a human")))
	wantReason(t, conn, "orders.parked", "the handler parked it: needs a human")
}

func TestHandlerPanicIsRejectedAndTheConsumerKeepsGoing(t *testing.T) {
	conn := ordersConn(t)
	var handled recorder[string]
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		if m.Payload.ID == "bad" {
			panic("nil map")
		}
		handled.add(m.Payload.ID)
		return acemq.Accept()
	})
	send(t, conn, "orders", Order{ID: "bad"}, acemq.MessageID("11111111-1111-4111-8111-111111111111"))
	send(t, conn, "orders", Order{ID: "good"})
	d := awaitMessage(t, conn, "orders.dlq")
	want := "the handler rejected it: acemq: the handler panicked on message 11111111-1111-4111-8111-111111111111: nil map"
	if got := reasonOn(d); got != want {
		t.Errorf("reason %q", got)
	}
	waitFor(t, "the next message", func() bool { return slices.Equal(handled.all(), []string{"good"}) })
}

func TestUndecodableBodyIsParkedWithoutReachingTheHandler(t *testing.T) {
	conn := ordersConn(t)
	var calls recorder[int]
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		calls.add(1)
		return acemq.Accept()
	})
	_, err := conn.PublishRaw(context.Background(), "", "orders", driver.Outbound{Body: []byte("{not json"), ContentType: "application/json"})
	if err != nil {
		t.Fatal(err)
	}
	got := reasonOn(awaitMessage(t, conn, "orders.parked"))
	if !strings.HasPrefix(got, "could not be decoded: ") || calls.len() != 0 {
		t.Errorf("reason %q, handler calls %d", got, calls.len())
	}
}

func TestUnclaimedContentTypeIsParkedNamingIt(t *testing.T) {
	conn := ordersConn(t)
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() })
	_, _ = conn.PublishRaw(context.Background(), "", "orders", driver.Outbound{Body: []byte("{}"), ContentType: "application/x-protobuf"})
	wantReason(t, conn, "orders.parked", `could not be decoded: no codec reads "application/x-protobuf"`)
}

func TestMissingRequiredHeaderDeadLettersOnConsume(t *testing.T) {
	conn := ordersConn(t)
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack { return acemq.Accept() },
		acemqimpl.ConsumeHeaderRules(acemq.HeaderRule{Name: "x-tenant", Required: true}))
	send(t, conn, "orders", Order{})
	wantReason(t, conn, "orders.dlq", `the message lacks the required header "x-tenant"`)
}

func TestOnSettledReportsTheRetryWithTheNextAttemptAndItsDelay(t *testing.T) {
	conn := ordersConn(t)
	first, second := retryOnceThenAccept(t, conn, acemq.FixedRetry(2, 2*time.Millisecond))
	if first.Action != acemq.ActionRetried || first.Outcome != semconv.OutcomeRetried ||
		first.Envelope.Attempt != 2 || first.Delay != 2*time.Millisecond || first.Queue != "orders" {
		t.Errorf("retry settlement %+v", first)
	}
	if second.Action != "accepted" || second.Outcome != "acked" || second.Envelope.Attempt != 2 {
		t.Errorf("accept settlement %+v", second)
	}
}

func TestOnSettledOutsideAConsumerReturnsFalse(t *testing.T) {
	if acemq.OnSettled(context.Background(), func(acemq.Settlement) {}) {
		t.Fatal("OnSettled without an engine must report false")
	}
}

func TestRetryWaitingInTheBrokerGoesThroughTheRungAndBackToTheQueue(t *testing.T) {
	conn := ordersConn(t)
	policy := acemq.FixedRetry(2, 20*time.Millisecond).WaitInBrokerFrom(10 * time.Millisecond)
	first, second := retryOnceThenAccept(t, conn, policy)
	if first.Delay != 20*time.Millisecond || first.Outcome != "retried" {
		t.Errorf("a broker wait is exact: %+v", first)
	}
	if second.Envelope.Attempt != 2 || second.Outcome != "acked" {
		t.Errorf("the retried message came back as %+v", second)
	}
	if n := count(t, conn, acemq.RungQueue("orders", 20*time.Millisecond)); n != 0 {
		t.Errorf("the rung still holds %d messages", n)
	}
}

func TestAgeLimitDeadLettersAnOldMessage(t *testing.T) {
	conn := ordersConn(t)
	consume(t, conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		return acemq.Retry(errors.New("slow"))
	}, acemq.RetryWith(acemq.FixedRetry(5, time.Millisecond).GiveUpAfter(time.Hour)))
	send(t, conn, "orders", Order{}, acemq.FirstSeen(time.Now().Add(-2*time.Hour)))
	wantReason(t, conn, "orders.dlq", "exceeded the maximum message age of 1h0m0s: slow")
}

// flakyCodec fails its first decode without the fatal mark, as a codec does
// when its schema registry cannot be reached for a moment.
type flakyCodec struct {
	acemq.JSONCodec
	calls *atomic.Int32
}

func (f flakyCodec) Decode(body []byte, dst any) error {
	if f.calls.Add(1) == 1 {
		return errors.New("the schema registry is unreachable")
	}
	return f.JSONCodec.Decode(body, dst)
}

func TestAPassingDecodeFailureIsRetriedNotParked(t *testing.T) {
	conn := connect(t)
	declare(t, conn, "orders", acemq.Transient())
	var attempts recorder[int]
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		attempts.add(m.Envelope.Attempt)
		return acemq.Accept()
	}, acemq.ConsumeWith(flakyCodec{calls: &atomic.Int32{}}), acemq.RetryWith(acemq.FixedRetry(3, time.Millisecond)))
	send(t, conn, "orders", Order{ID: "1"})
	waitFor(t, "the retried message handled", func() bool { return attempts.len() == 1 })
	if got := attempts.all()[0]; got != 2 {
		t.Fatalf("handled at attempt %d, want 2 (retried once, not parked)", got)
	}
	if n := count(t, conn, acemq.ParkedQueue("orders")); n != 0 {
		t.Fatalf("%d parked, want none", n)
	}
}
