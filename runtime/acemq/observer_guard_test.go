package acemq_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// panickingObserver panics on every sample.
type panickingObserver struct{}

func (panickingObserver) Count(string, int64, semconv.Labels)     { panic("boom") }
func (panickingObserver) Observe(string, float64, semconv.Labels) { panic("boom") }
func (panickingObserver) Gauge(string, float64, semconv.Labels)   { panic("boom") }

func TestPanickingObserverLosesASampleNotTheProcess(t *testing.T) {
	logs := &syncWriter{w: &bytes.Buffer{}}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	conn := connect(t, acemq.WithObserver(panickingObserver{}), acemq.WithLogger(logger))
	declare(t, conn, "orders", acemq.Transient())
	got := make(chan string, 1)
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		got <- m.Payload.ID
		return acemq.Accept()
	})
	send(t, conn, "orders", Order{ID: "counted-by-a-panicking-observer"})
	if id := <-got; id != "counted-by-a-panicking-observer" {
		t.Fatalf("handled %q", id)
	}
	if out := logs.String(); strings.Count(out, "a metric sample was lost") != 1 || !strings.Contains(out, "the observer panicked: boom") {
		t.Fatalf("want the observer's first panic logged once; log:\n%s", out)
	}
}
