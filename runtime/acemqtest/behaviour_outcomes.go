package acemqtest

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sync"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

var outcomeCases = []behaviourCase{
	{"outcome/retry-republishes-attempts-1-2-3-then-dead-letters-exhausted", retryThenExhausted},
	{"outcome/broker-wait-retry-goes-through-a-rung-queue", brokerWaitRetry},
	{"outcome/fatal-error-skips-retries", fatalSkipsRetries},
	{"outcome/reject-dead-letters-with-the-reason", rejectDeadLetters},
	{"outcome/park-sets-aside-with-the-reason", parkSetsAside},
	{"outcome/on-settled-reports-the-decision", onSettledReports},
}

// always answers every message with ack.
func always(ack acemq.Ack) func(context.Context, acemq.Message[order]) acemq.Ack {
	return func(context.Context, acemq.Message[order]) acemq.Ack { return ack }
}

// expectSetAside pulls the message set aside in queue and checks its reason.
func expectSetAside(k *bkit, queue, id, reason string) acemq.Envelope {
	k.t.Helper()
	d, env := k.pullEnvelope(queue)
	var got order
	_ = json.Unmarshal(d.Body, &got)
	if got.ID != id || env.Error != reason {
		k.t.Errorf("%s holds %q with reason %q, want %q with reason %q", queue, got.ID, env.Error, id, reason)
	}
	return env
}

func retryThenExhausted(k *bkit) {
	q := k.queue()
	rec := newRecorder(always(acemq.Retry(errors.New("boom"))))
	k.consume(nil, q, rec.handle, acemq.RetryWith(acemq.FixedRetry(3, time.Millisecond)))
	res := k.send(q, order{ID: "doomed"})
	for want := 1; want <= 3; want++ {
		m := rec.expect(k, "doomed")
		if m.Envelope.Attempt != want || m.Envelope.ID != res.MessageID {
			k.t.Errorf("delivery %d has attempt %d id %s, want attempt %d id %s", want, m.Envelope.Attempt, m.Envelope.ID, want, res.MessageID)
		}
	}
	env := expectSetAside(k, acemq.DeadLetterQueue(q), "doomed", "exhausted 3 attempts: boom")
	if env.Attempt != 3 || env.ID != res.MessageID {
		k.t.Errorf("dead letter attempt %d id %s, want attempt 3 id %s", env.Attempt, env.ID, res.MessageID)
	}
	if n := rec.handled(); n != 3 {
		k.t.Errorf("handled %d times, want 3", n)
	}
}

func brokerWaitRetry(k *bkit) {
	q := k.queue()
	pol := acemq.FixedRetry(2, 50*time.Millisecond).WaitInBrokerFrom(50 * time.Millisecond)
	rung := acemq.RungQueue(q, 50*time.Millisecond)
	k.remember(rung)
	settled := make(chan acemq.Settlement, 2)
	rec := newRecorder(func(ctx context.Context, m acemq.Message[order]) acemq.Ack {
		acemq.OnSettled(ctx, func(s acemq.Settlement) { settled <- s })
		if m.Envelope.Attempt == 1 {
			return acemq.Retry(errors.New("later"))
		}
		return acemq.Accept()
	})
	k.consume(nil, q, rec.handle, acemq.RetryWith(pol))
	k.send(q, order{ID: "patient"})
	rec.expect(k, "patient")
	if s := <-settled; s.Action != acemq.ActionRetried || s.Delay != 50*time.Millisecond || s.Envelope.Attempt != 2 {
		k.t.Errorf("first settlement = %+v, want retried with the rung's exact 50ms and attempt 2", s)
	}
	m := rec.expect(k, "patient")
	if m.Envelope.Attempt != 2 {
		k.t.Errorf("retried attempt %d, want 2", m.Envelope.Attempt)
	}
	checkDeath(k, m.Envelope.Headers, rung, "expired")
	if n := k.count(rung); n != 0 {
		k.t.Errorf("the rung %s holds %d messages after the retry, want 0", rung, n)
	}
}

// checkDeath: the broker's x-death names the queue and reason of the last
// dead-lettering, and x-first-death-* the first.
func checkDeath(k *bkit, h map[string]any, queue, reason string) {
	k.t.Helper()
	deaths, _ := h["x-death"].([]any)
	if len(deaths) == 0 {
		k.t.Fatalf("x-death = %#v, want the broker's dead-letter history", h["x-death"])
	}
	first, _ := deaths[0].(map[string]any)
	if first["queue"] != queue || first["reason"] != reason || first["count"] != int64(1) {
		k.t.Errorf("x-death[0] = %#v, want queue %s, reason %s, count 1", first, queue, reason)
	}
	if h["x-first-death-queue"] != queue || h["x-first-death-reason"] != reason {
		k.t.Errorf("x-first-death-queue %#v reason %#v, want %s and %s", h["x-first-death-queue"], h["x-first-death-reason"], queue, reason)
	}
}

func fatalSkipsRetries(k *bkit) {
	q := k.queue()
	rec := newRecorder(always(acemq.Retry(acemq.Fatal(errors.New("bad data")))))
	k.consume(nil, q, rec.handle, acemq.RetryWith(acemq.FixedRetry(5, time.Millisecond)))
	k.send(q, order{ID: "fatal"})
	expectSetAside(k, acemq.DeadLetterQueue(q), "fatal", "the handler reported an unprocessable message: bad data")
	if n := rec.handled(); n != 1 {
		k.t.Errorf("a fatal failure was handled %d times, want 1 (no retries)", n)
	}
}

func rejectDeadLetters(k *bkit) {
	setAsideOnlyTo(k, acemq.Reject(errors.New("not for us")), "rejected", acemq.DeadLetterQueue, acemq.ParkedQueue, "parked queue",
		"the handler rejected it: not for us")
}

func parkSetsAside(k *bkit) {
	setAsideOnlyTo(k, acemq.Park(errors.New("needs a person")), "parked", acemq.ParkedQueue, acemq.DeadLetterQueue, "dead-letter queue",
		"the handler parked it: needs a person")
}

// setAsideOnlyTo consumes a fresh queue with a handler that always returns
// ack, sends one order with the ID id, and expects it set aside to the queue
// named by to with reason, leaving none in the queue named by other.
func setAsideOnlyTo(k *bkit, ack acemq.Ack, id string, to, other func(string) string, otherName, reason string) {
	q := k.queue()
	rec := newRecorder(always(ack))
	k.consume(nil, q, rec.handle)
	k.send(q, order{ID: id})
	expectSetAside(k, to(q), id, reason)
	if n := k.count(other(q)); n != 0 {
		k.t.Errorf("a %s message left %d in the %s, want 0", id, n, otherName)
	}
}

// settlements collects what OnSettled reports. Safe for concurrent use.
type settlements struct {
	mu  sync.Mutex
	got []acemq.Settlement
}

func (s *settlements) add(x acemq.Settlement) { s.mu.Lock(); s.got = append(s.got, x); s.mu.Unlock() }

func (s *settlements) len() int { s.mu.Lock(); defer s.mu.Unlock(); return len(s.got) }

// handler accepts every message but "reject", registering OnSettled first.
func (s *settlements) handler(k *bkit) func(context.Context, acemq.Message[order]) acemq.Ack {
	return func(ctx context.Context, m acemq.Message[order]) acemq.Ack {
		if !acemq.OnSettled(ctx, s.add) {
			k.t.Error("OnSettled in a handler returned false")
		}
		if m.Payload.ID == "reject" {
			return acemq.Reject(errors.New("no"))
		}
		return acemq.Accept()
	}
}

func onSettledReports(k *bkit) {
	q, s := k.queue(), &settlements{}
	k.consume(nil, q, newRecorder(s.handler(k)).handle)
	a, r := k.send(q, order{ID: "accept"}), k.send(q, order{ID: "reject"})
	expectSetAside(k, acemq.DeadLetterQueue(q), "reject", "the handler rejected it: no")
	k.eventually("two settlements", func() bool { return s.len() == 2 })
	want := []acemq.Settlement{
		{Queue: q, Action: acemq.ActionAccepted, Outcome: semconv.OutcomeAcked},
		{Queue: q, Action: acemq.ActionDeadLettered, Outcome: semconv.OutcomeRejected, Reason: "the handler rejected it: no"},
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, id := range []string{a.MessageID, r.MessageID} {
		got := s.got[i]
		if got.Envelope.ID != id || got.Envelope.Error != want[i].Reason {
			k.t.Errorf("settlement %d envelope %s error %q, want %s with %q", i, got.Envelope.ID, got.Envelope.Error, id, want[i].Reason)
		}
		got.Envelope = acemq.Envelope{}
		if !reflect.DeepEqual(got, want[i]) {
			k.t.Errorf("settlement %d = %+v, want %+v", i, got, want[i])
		}
	}
}
