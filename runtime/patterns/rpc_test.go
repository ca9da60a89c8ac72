package patterns

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

var errNotFound = NewError("NotFound")

func TestFiftyConcurrentCallersEachGetTheirOwnAnswer(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		metrics := acemqtest.NewMetrics()
		conn := r.conn(acemq.WithObserver(metrics))
		q := r.queue(conn, "fifty")
		resp := serve(t, conn, q, double, acemq.Concurrency(8))
		req := requester[int, int](t, conn, q)
		var wg sync.WaitGroup
		errs := make([]error, 50)
		for i := range 50 {
			wg.Go(func() {
				got, err := req.Do(r.ctx(), i)
				if err == nil && got != 2*i {
					err = fmt.Errorf("caller %d got %d", i, got)
				}
				errs[i] = err
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		if resp.Answered() != 50 {
			t.Errorf("Answered = %d, want 50", resp.Answered())
		}
		key := acemqtest.MetricKey(semconv.MetricRequestTotal, semconv.Labels{"routing.key": q, "outcome": "answered"})
		if got := metrics.Counts()[key]; got != 50 {
			t.Errorf("%s = %d, want 50 (all: %v)", key, got, metrics.Counts())
		}
		durKey := acemqtest.MetricKey(semconv.MetricRequestDuration, semconv.Labels{"routing.key": q, "outcome": "answered"})
		if metrics.Durations()[durKey].Count != 50 {
			t.Errorf("%s = %+v, want 50 samples", durKey, metrics.Durations()[durKey])
		}
	})
}

func TestDeclaredErrorReachesTheCallerAsTheSameValue(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn := r.conn()
		q := r.queue(conn, "declared")
		resp := serve(t, conn, q, func(_ context.Context, m acemq.Message[int]) (int, error) {
			return 0, fmt.Errorf("order %d is in the secret archive: %w", m.Payload, errNotFound)
		})
		req := requester[int, int](t, conn, q, DeclaredErrors(errNotFound))
		_, err := req.Do(r.ctx(), 7)
		if err != errNotFound || !errors.Is(err, NewError("NotFound")) {
			t.Fatalf("err = %v (%T), want errNotFound itself", err, err)
		}
		if count(t, conn, q+".dlq") != 0 || resp.Answered() != 1 {
			t.Errorf("a declared failure is an answer: dlq %d, answered %d", count(t, conn, q+".dlq"), resp.Answered())
		}
		plain := requester[int, int](t, conn, q)
		if _, err := plain.Do(r.ctx(), 8); !errors.Is(err, errNotFound) || strings.Contains(err.Error(), "secret") {
			t.Errorf("without DeclaredErrors: err = %v, want a NotFound without the handler's text", err)
		}
	})
}

func TestUndeclaredErrorTextNeverReachesTheCaller(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		var logs bytes.Buffer
		conn := r.conn(acemq.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
		q := r.queue(conn, "undeclared")
		serve(t, conn, q, func(context.Context, acemq.Message[int]) (int, error) {
			return 0, errors.New("password=hunter2 rejected by the ledger")
		})
		req := requester[int, int](t, conn, q)
		_, err := req.Do(r.ctx(), 1)
		if !errors.Is(err, ErrResponderFailed) || strings.Contains(err.Error(), "hunter2") {
			t.Fatalf("err = %v, want ErrResponderFailed without the handler's text", err)
		}
		if !strings.HasPrefix(err.Error(), "acemq: the responder failed (message ") {
			t.Errorf("err = %q, want the generic text naming the message", err)
		}
		eventually(t, "the request is dead-lettered", func() bool { return count(t, conn, q+".dlq") == 1 })
		d, _, _ := conn.Pull(r.ctx(), q+".dlq")
		reason := acemq.EnvelopeFromWire(d.Headers, d.RoutingKey, d.MessageID).Error
		if !strings.Contains(reason, "hunter2") || !strings.Contains(logs.String(), "hunter2") {
			t.Errorf("the responder side keeps the text: dlq reason %q, logs %q", reason, logs.String())
		}
	})
}

func TestDeadlineShorterThanTheHandlerTimesOutAndCancelsTheHandler(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		metrics := acemqtest.NewMetrics()
		conn := r.conn(acemq.WithObserver(metrics))
		q := r.queue(conn, "slow")
		handlerErr := make(chan error, 1)
		resp := serve(t, conn, q, func(ctx context.Context, _ acemq.Message[int]) (int, error) {
			<-ctx.Done()
			handlerErr <- ctx.Err()
			return 1, nil
		})
		req := requester[int, int](t, conn, q, Timeout(80*time.Millisecond))
		_, err := req.Do(r.ctx(), 1)
		if !errors.Is(err, ErrRequestTimedOut) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want ErrRequestTimedOut and context.DeadlineExceeded", err)
		}
		if !strings.HasPrefix(err.Error(), "acemq: no reply arrived before the deadline after 80ms (correlation ") {
			t.Errorf("err = %q, not the family's wording", err)
		}
		select {
		case herr := <-handlerErr:
			if !errors.Is(herr, context.DeadlineExceeded) {
				t.Errorf("handler ctx ended with %v, want its deadline", herr)
			}
		case <-time.After(testWait):
			t.Fatal("the handler's ctx was never cancelled")
		}
		eventually(t, "the late answer is not sent", func() bool { return resp.Expired() == 1 })
		key := acemqtest.MetricKey(semconv.MetricRequestTotal, semconv.Labels{"routing.key": q, "outcome": "timed_out"})
		if metrics.Counts()[key] != 1 || resp.Answered() != 0 {
			t.Errorf("%s = %d, answered %d; want 1 and 0", key, metrics.Counts()[key], resp.Answered())
		}
	})
}

func TestCallerDeadlineSoonerThanTimeoutWins(t *testing.T) {
	conn := (&rig{t: t, url: "memory://patterns-" + acemq.NewUUID()}).conn()
	if err := conn.DeclareQueue(context.Background(), "nobody-answers", acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	req := requester[int, int](t, conn, "nobody-answers", Timeout(time.Hour))
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Millisecond)
	defer cancel()
	if _, err := req.Do(ctx, 1); !errors.Is(err, ErrRequestTimedOut) {
		t.Fatalf("err = %v, want a timeout at the caller's deadline", err)
	}
}

func TestExplicitCancelReturnsContextCanceled(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		metrics := acemqtest.NewMetrics()
		conn := r.conn(acemq.WithObserver(metrics))
		q := r.queue(conn, "cancel")
		started := make(chan struct{}, 1)
		serve(t, conn, q, func(ctx context.Context, _ acemq.Message[int]) (int, error) {
			started <- struct{}{}
			<-ctx.Done()
			return 0, ctx.Err()
		})
		req := requester[int, int](t, conn, q, Timeout(300*time.Millisecond))
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-started; cancel() }()
		_, err := req.Do(ctx, 1)
		if err != context.Canceled {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		key := acemqtest.MetricKey(semconv.MetricRequestTotal, semconv.Labels{"routing.key": q, "outcome": "failed"})
		if metrics.Counts()[key] != 1 {
			t.Errorf("%s = %d, want 1", key, metrics.Counts()[key])
		}
	})
}

func TestRequestThatWaitedPastItsDeadlineIsNeverHandled(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn := r.conn()
		q := r.queue(conn, "stale")
		req := requester[int, int](t, conn, q, Timeout(30*time.Millisecond))
		if _, err := req.Do(r.ctx(), 1); !errors.Is(err, ErrRequestTimedOut) {
			t.Fatalf("with no responder: err = %v, want a timeout", err)
		}
		// A family requester's request without expiration, deadline passed.
		stale := driver.Outbound{MessageID: acemq.NewUUID(), ContentType: "application/json", Body: []byte("2"),
			Headers: map[string]any{HeaderReplyTo: req.ReplyQueue(), HeaderDeadline: time.Now().Add(-time.Second).UnixMilli()}}
		if _, err := conn.PublishRaw(r.ctx(), "", q, stale); err != nil {
			t.Fatal(err)
		}
		var handled atomic.Int64
		resp := serve(t, conn, q, func(_ context.Context, m acemq.Message[int]) (int, error) {
			handled.Add(1)
			return m.Payload, nil
		})
		fresh := requester[int, int](t, conn, q)
		if got, err := fresh.Do(r.ctx(), 3); err != nil || got != 3 {
			t.Fatalf("fresh request: %d, %v", got, err)
		}
		if handled.Load() != 1 || resp.Expired() != 1 {
			t.Errorf("handled %d, expired %d; want only the fresh request handled and the stale one counted", handled.Load(), resp.Expired())
		}
	})
}

func TestRequestWithoutReplyAddressIsDeadLettered(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn := r.conn()
		q := r.queue(conn, "noreply")
		var handled atomic.Int64
		resp := serve(t, conn, q, func(context.Context, acemq.Message[int]) (int, error) { handled.Add(1); return 0, nil })
		msg := driver.Outbound{MessageID: acemq.NewUUID(), ContentType: "application/json", Body: []byte("1")}
		if _, err := conn.PublishRaw(r.ctx(), "", q, msg); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the request is dead-lettered", func() bool { return count(t, conn, q+".dlq") == 1 })
		if resp.Unanswerable() != 1 || handled.Load() != 0 {
			t.Errorf("unanswerable %d, handled %d; want 1 and 0", resp.Unanswerable(), handled.Load())
		}
	})
}

// TestRPCToAQueueNobodyDeclaredFailsUnroutableAtOnce calls a queue nobody
// declared with a 30s timeout under a caller's deadline of testWait: a call
// that waited for an answer would end at the deadline with a timeout, not
// with ErrUnroutable naming the queue. Both reply paths: the transport's
// direct reply-to (a Client) and a named reply queue.
func TestRPCToAQueueNobodyDeclaredFailsUnroutableAtOnce(t *testing.T) {
	onEveryTransport(t, func(t *testing.T, r *rig) {
		conn := r.conn()
		nobody := r.name("nobody")
		client := NewClient[int, int](conn, "", nobody, Timeout(30*time.Second))
		defer client.Close()
		_, err := client.Do(r.ctx(), 1)
		wantUnroutableCall(t, "client", err, nobody)
		replies := r.name("replies")
		req := requester[int, int](t, conn, nobody, Timeout(30*time.Second), ReplyTo(replies))
		_, err = req.Do(r.ctx(), 1)
		wantUnroutableCall(t, "named reply queue", err, nobody)
	})
}

func wantUnroutableCall(t *testing.T, what string, err error, queue string) {
	t.Helper()
	var pf *acemq.PublishFailedError
	if !errors.Is(err, acemq.ErrUnroutable) || errors.Is(err, ErrRequestTimedOut) || !errors.As(err, &pf) {
		t.Fatalf("%s: err = %v, want ErrUnroutable at once, not a timeout", what, err)
	}
	if pf.RoutingKey != queue || !strings.Contains(err.Error(), strconv.Quote(queue)) {
		t.Errorf("%s: %q does not name the queue %q", what, err, queue)
	}
}
