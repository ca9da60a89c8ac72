package patterns

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// familyResponder answers requests on queue as a family library does (see
// rawResponder). answer returns the reply body, or the acemq-error text when
// fail is set.
func familyResponder(t *testing.T, conn *acemq.Conn, queue string, answer func(n int) (body int, failText string)) {
	t.Helper()
	rawResponder(t, conn, queue, func(request []byte) (string, []byte, map[string]any) {
		var n int
		_ = json.Unmarshal(request, &n)
		body, fail := answer(n)
		headers := map[string]any{}
		if fail != "" {
			headers[HeaderError] = fail
		}
		b, _ := json.Marshal(body)
		return "application/json", b, headers
	})
}

// rawResponder answers every request on queue with reply's content type,
// body and headers as a family library does: to acemq-reply-to (never the
// reply-to property), with x-acemq-correlation only, no correlation-id
// property.
func rawResponder(t *testing.T, conn *acemq.Conn, queue string, reply func(request []byte) (contentType string, body []byte, headers map[string]any)) {
	t.Helper()
	sub, err := conn.Transport().Consume(context.Background(), queue, driver.ConsumeSpec{Prefetch: 10}, func(d driver.Delivery) {
		_ = d.Ack()
		to, _ := headerString(d.Headers, HeaderReplyTo)
		corr, _ := headerString(d.Headers, semconv.HeaderCorrelation)
		contentType, body, headers := reply(d.Body)
		env, _ := acemq.NewEnvelope("reply", acemq.CorrelationID(corr))
		for k, v := range headers {
			env.Headers[k] = v
		}
		out := driver.Outbound{MessageID: env.ID, ContentType: contentType, Body: body, Headers: env.ToWire()}
		if _, err := conn.PublishRaw(context.Background(), "", to, out); err != nil {
			t.Errorf("family responder: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Close() })
}

func TestOurRequesterWorksWithAFamilyResponder(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn := r.conn()
		q := r.queue(conn, "family-responder")
		familyResponder(t, conn, q, func(n int) (int, string) {
			if n < 0 {
				return 0, "negative numbers are not served"
			}
			return n + 100, ""
		})
		named := requester[int, int](t, conn, q, ReplyTo(r.name("family-replies")))
		direct := requester[int, int](t, conn, q)
		for _, req := range []*Requester[int, int]{named, direct} {
			if got, err := req.Do(r.ctx(), 5); err != nil || got != 105 {
				t.Errorf("reply queue %s: got %d, %v; want 105", req.ReplyQueue(), got, err)
			}
			_, err := req.Do(r.ctx(), -1)
			if !errors.Is(err, ErrResponderFailed) || err.Error() != "acemq: the responder failed: negative numbers are not served" {
				t.Errorf("reply queue %s: err = %v, want the family's failure", req.ReplyQueue(), err)
			}
		}
	})
}

func TestOurResponderAnswersAFamilyRequester(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn := r.conn()
		q := r.queue(conn, "family-requester")
		replies := r.queue(conn, "family-replies")
		serve(t, conn, q, func(_ context.Context, m acemq.Message[int]) (int, error) {
			if m.Payload < 0 {
				return 0, errNotFound
			}
			return 2 * m.Payload, nil
		})
		ask := func(n int) driver.Delivery { return rawAsk(t, r, conn, acemq.JSONCodec{}, q, replies, n) }
		if d := ask(21); string(d.Body) != "42" {
			t.Errorf("reply body %q, want 42", d.Body)
		}
		if text, ok := headerString(ask(-1).Headers, HeaderError); !ok || text != "NotFound" {
			t.Errorf("failure reply acemq-error = %q (%v), want NotFound", text, ok)
		}
	})
}

func TestRawRequesterWithOnlyAMQPPropertiesIsAnswered(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn := r.conn()
		q := r.queue(conn, "raw-requester")
		replies := r.queue(conn, "raw-replies")
		serve(t, conn, q, double)
		out := driver.Outbound{MessageID: "m-1", ContentType: "application/json", Body: []byte("4"),
			ReplyTo: replies, CorrelationID: "raw-corr-1"}
		if _, err := conn.PublishRaw(r.ctx(), "", q, out); err != nil {
			t.Fatal(err)
		}
		var d driver.Delivery
		eventually(t, "the reply arrives", func() bool {
			got, ok, _ := conn.Pull(r.ctx(), replies)
			d = got
			return ok
		})
		if d.CorrelationID != "raw-corr-1" || string(d.Body) != "8" {
			t.Errorf("reply correlation-id %q body %q, want raw-corr-1 and 8", d.CorrelationID, d.Body)
		}
	})
}

func TestLateReplyIsDroppedAndCountedNeverDeliveredToALaterCall(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn := r.conn()
		q := r.queue(conn, "late")
		var mu sync.Mutex
		var held []driver.Delivery
		sub, err := conn.Transport().Consume(context.Background(), q, driver.ConsumeSpec{Prefetch: 10}, func(d driver.Delivery) {
			_ = d.Ack()
			mu.Lock()
			held = append(held, d)
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = sub.Close() })
		req := requester[int, int](t, conn, q, Timeout(50*time.Millisecond))
		if _, err := req.Do(r.ctx(), 1); !errors.Is(err, ErrRequestTimedOut) {
			t.Fatalf("err = %v, want a timeout", err)
		}
		mu.Lock()
		first := held[0]
		mu.Unlock()
		reply := driver.Outbound{MessageID: acemq.NewUUID(), ContentType: "application/json", Body: []byte("999"),
			CorrelationID: first.CorrelationID}
		to, _ := headerString(first.Headers, HeaderReplyTo)
		if _, err := conn.PublishRaw(r.ctx(), "", to, reply); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the late reply is counted", func() bool { return req.Late() == 1 })
		_, err = req.Do(r.ctx(), 2)
		if !errors.Is(err, ErrRequestTimedOut) {
			t.Errorf("a later call got %v; the late reply must not reach it", err)
		}
	})
}

func TestRequestCarriesDeadlineExpirationCorrelationAndReplyAddress(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn := r.conn(acemq.WithPublishInterceptor(func(_ context.Context, c *acemq.PublishContext) error {
			c.SetHeader("x-tenant", "acme")
			return nil
		}))
		q := r.queue(conn, "wire")
		got := make(chan driver.Delivery, 1)
		sub, err := conn.Transport().Consume(context.Background(), q, driver.ConsumeSpec{Prefetch: 1}, func(d driver.Delivery) {
			_ = d.Ack()
			got <- d
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = sub.Close() })
		req := requester[int, int](t, conn, q, Timeout(2*time.Second))
		go func() { _, _ = req.Do(context.Background(), 1, acemq.CorrelationID("mine")) }()
		d := <-got
		checkRequestWire(t, d, req.ReplyQueue())
	})
}

func checkRequestWire(t *testing.T, d driver.Delivery, replyQueue string) {
	t.Helper()
	corr, _ := headerString(d.Headers, semconv.HeaderCorrelation)
	to, _ := headerString(d.Headers, HeaderReplyTo)
	deadline, _ := headerMillis(d.Headers, HeaderDeadline)
	left := time.Until(time.UnixMilli(deadline))
	if corr == "mine" || corr != d.CorrelationID || len(corr) != 36 {
		t.Errorf("correlation header %q property %q: Do owns a fresh one", corr, d.CorrelationID)
	}
	if to != replyQueue || d.ReplyTo != replyQueue {
		t.Errorf("acemq-reply-to %q, reply-to %q, want both %q", to, d.ReplyTo, replyQueue)
	}
	ms, err := strconv.Atoi(d.Expiration)
	if left <= 0 || left > 2*time.Second || err != nil || ms <= 0 || ms > 2000 {
		t.Errorf("deadline in %s, expiration %q; want both within the 2s timeout", left, d.Expiration)
	}
	if v, _ := headerString(d.Headers, "x-tenant"); v != "acme" {
		t.Errorf("x-tenant = %q: requests go through the publish interceptors", v)
	}
	if !strings.HasPrefix(replyQueue, "amq.rabbitmq.reply-to.") {
		t.Errorf("reply queue %q, want a direct reply-to address", replyQueue)
	}
}

func TestFamilyFailureNamingADeclaredErrorIsThatError(t *testing.T) {
	r := &rig{t: t, url: "memory://patterns-" + acemq.NewUUID()}
	conn := r.conn()
	q := r.queue(conn, "family-declared")
	familyResponder(t, conn, q, func(int) (int, string) { return 0, "NotFound" })
	req := requester[int, int](t, conn, q, DeclaredErrors(errNotFound))
	if _, err := req.Do(r.ctx(), 1); err != errNotFound {
		t.Errorf("err = %v, want errNotFound itself", err)
	}
}
