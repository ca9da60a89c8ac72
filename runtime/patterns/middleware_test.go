package patterns_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// tracer returns a middleware appending name+"-in" and name+"-out" to log.
func tracer(log *[]string, name string) patterns.Middleware[order] {
	return func(next acemq.Handler[order]) acemq.Handler[order] {
		return func(ctx context.Context, m acemq.Message[order]) acemq.Ack {
			*log = append(*log, name+"-in")
			ack := next(ctx, m)
			*log = append(*log, name+"-out:"+ack.String())
			return ack
		}
	}
}

func TestChainRunsTheFirstListedMiddlewareOutermost(t *testing.T) {
	var log []string
	h := patterns.Chain(func(context.Context, acemq.Message[order]) acemq.Ack {
		log = append(log, "handler")
		return acemq.Park(errors.New("look"))
	}, tracer(&log, "a"), nil, tracer(&log, "b"))
	ack := h(context.Background(), message("m-1"))
	want := []string{"a-in", "b-in", "handler", "b-out:park", "a-out:park"}
	if !slices.Equal(log, want) || ack.String() != "park" {
		t.Errorf("ran %v and returned %s, want %v and park", log, ack, want)
	}
}

func TestWithTimeoutCancelsTheHandlersContextAndRetriesWhateverItSaid(t *testing.T) {
	h := patterns.Chain(func(ctx context.Context, _ acemq.Message[order]) acemq.Ack {
		<-ctx.Done()
		return acemq.Accept()
	}, patterns.WithTimeout[order](2*time.Millisecond))
	ack := h(context.Background(), message("m-1"))
	if !ack.IsRetry() || !errors.Is(ack.Err(), context.DeadlineExceeded) {
		t.Fatalf("got %s (%v), want a retry matching context.DeadlineExceeded", ack, ack.Err())
	}
	if got := ack.Err().Error(); got != "acemq: handling message m-1 did not finish within 2ms: context deadline exceeded" {
		t.Errorf("error %q", got)
	}
}

func TestWithTimeoutLeavesAPromptHandlersAckAlone(t *testing.T) {
	h := patterns.Chain(func(context.Context, acemq.Message[order]) acemq.Ack {
		return acemq.Reject(errors.New("bad order"))
	}, patterns.WithTimeout[order](time.Hour))
	if ack := h(context.Background(), message("m-1")); ack.String() != "reject" {
		t.Errorf("got %s, want the handler's reject", ack)
	}
}

func TestWithTimeoutLeavesAnOuterCancellationToTheHandler(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h := patterns.Chain(func(ctx context.Context, _ acemq.Message[order]) acemq.Ack {
		return acemq.Park(ctx.Err())
	}, patterns.WithTimeout[order](time.Hour))
	if ack := h(ctx, message("m-1")); ack.String() != "park" || !errors.Is(ack.Err(), context.Canceled) {
		t.Errorf("got %s (%v), want the handler's park of a cancelled context", ack, ack.Err())
	}
}

func TestWithTimeoutRefusesANonPositiveDuration(t *testing.T) {
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "positive duration, got 0s") {
			t.Errorf("panic %v, want one naming the duration", p)
		}
	}()
	patterns.WithTimeout[order](0)
}

func TestWithTimeoutInAConsumerRetriesTheSlowAttemptAndAcceptsTheNext(t *testing.T) {
	conn := mwConnect(t)
	rec := newSettlements()
	h := patterns.Chain(func(ctx context.Context, m acemq.Message[order]) acemq.Ack {
		if m.Envelope.Attempt == 1 {
			<-ctx.Done()
		}
		return acemq.Accept()
	}, rec.middleware, patterns.WithTimeout[order](2*time.Millisecond))
	mwConsume(t, conn, "orders", h, acemq.RetryWith(acemq.FixedRetry(2, time.Millisecond)))
	mwSend(t, conn, "orders", order{ID: "o-1"})
	first, second := rec.next(t), rec.next(t)
	if first.Outcome != semconv.OutcomeRetried || first.Envelope.Attempt != 2 {
		t.Errorf("the slow attempt settled %+v, want retried", first)
	}
	if second.Outcome != semconv.OutcomeAcked || second.Envelope.Attempt != 2 {
		t.Errorf("the second attempt settled %+v, want acked", second)
	}
}

func TestWithRecoveryTurnsAPanicIntoAFatalRejectTheOuterMiddlewareSees(t *testing.T) {
	var log []string
	h := patterns.Chain(func(context.Context, acemq.Message[order]) acemq.Ack {
		panic("boom")
	}, tracer(&log, "outer"), patterns.WithRecovery[order]())
	ack := h(context.Background(), message("m-1"))
	if ack.String() != "reject" || !acemq.IsFatal(ack.Err()) {
		t.Fatalf("got %s (%v), want a fatal reject", ack, ack.Err())
	}
	if got := ack.Err().Error(); got != "acemq: the handler panicked on message m-1: boom" {
		t.Errorf("error %q", got)
	}
	if !slices.Equal(log, []string{"outer-in", "outer-out:reject"}) {
		t.Errorf("outer middleware saw %v", log)
	}
}

func TestWithLoggingWritesOneRecordWithTheAckAndItsError(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	h := patterns.Chain(func(context.Context, acemq.Message[order]) acemq.Ack {
		return acemq.Retry(errors.New("ledger down"))
	}, patterns.WithLogging[order](logger))
	if ack := h(context.Background(), message("m-1")); !ack.IsRetry() {
		t.Fatalf("logging changed the ack to %s", ack)
	}
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatalf("want exactly one JSON record, got %q: %v", buf.String(), err)
	}
	if rec["level"] != "WARN" || rec["msg"] != "acemq: handled a message" || rec["message"] != "m-1" ||
		rec["ack"] != "retry" || rec["error"] != "ledger down" || rec["attempt"] != float64(1) {
		t.Errorf("record %v", rec)
	}
}

func TestWithLoggingLogsAnAcceptAtInfoWithoutAnError(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	h := patterns.Chain(func(context.Context, acemq.Message[order]) acemq.Ack { return acemq.Accept() },
		patterns.WithLogging[order](logger))
	h(context.Background(), message("m-1"))
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	if _, hasErr := rec["error"]; rec["level"] != "INFO" || rec["ack"] != "accept" || hasErr {
		t.Errorf("record %v", rec)
	}
}
