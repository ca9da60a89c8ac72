package acemq_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// capturing is a transport that keeps what it is given and refuses declarations.
type capturing struct {
	driver.Transport
	got []driver.Outbound
}

func (c *capturing) Publish(_ context.Context, _, _ string, msg driver.Outbound) (acemq.PublishResult, error) {
	c.got = append(c.got, msg)
	return acemq.PublishResult{MessageID: msg.MessageID, Routed: true}, nil
}

func (c *capturing) DeclareQueue(context.Context, string, driver.QueueSpec) error {
	return errors.New("capturing transport: no declarations")
}

func TestThroughSharesTheConnectionsConfigurationOverAnotherTransport(t *testing.T) {
	key := acemq.NewExtension[string]("test.through")
	stamp := func(_ context.Context, pc *acemq.PublishContext) error { pc.SetHeader("x-stamp", "on"); return nil }
	conn := connect(t, acemq.WithOrigin("through-test"), acemq.WithCodec(acemq.BytesCodec{}),
		acemq.WithPublishInterceptor(stamp), key.Option("kept"))
	tr := &capturing{}
	via := conn.Through(tr)
	if v, ok := key.Of(via.Extensions()); !ok || v != "kept" {
		t.Errorf("extension through the derived conn = %q, %v", v, ok)
	}
	if err := acemq.NewPublisher[[]byte](via, "", "q").Send(t.Context(), []byte("raw")); err != nil {
		t.Fatal(err)
	}
	if len(tr.got) != 1 {
		t.Fatalf("the transport got %d messages", len(tr.got))
	}
	m := tr.got[0]
	if string(m.Body) != "raw" || m.Headers["x-stamp"] != "on" || m.Headers[semconv.HeaderOrigin] != "through-test" {
		t.Errorf("published %+v: want conn's codec, interceptor and origin", m)
	}
	if err := via.DeclareQueue(t.Context(), "q"); err == nil || !strings.Contains(err.Error(), "no declarations") {
		t.Errorf("DeclareQueue through = %v, want the transport's refusal", err)
	}
	if err := acemq.NewPublisher[[]byte](conn.Through(nil), "", "q").Send(t.Context(), nil); err == nil ||
		!strings.Contains(err.Error(), "nil transport") {
		t.Errorf("Send through Through(nil) = %v", err)
	}
}

func TestMessageQueueIsTheQueueItWasConsumedFrom(t *testing.T) {
	conn := connect(t)
	declare(t, conn, "through-queue-name")
	got := make(chan string, 1)
	k, err := acemq.Consume(t.Context(), conn, "through-queue-name", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		got <- m.Queue
		return acemq.Accept()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if err := acemq.NewPublisher[Order](conn, "", "through-queue-name").Send(t.Context(), Order{ID: "1"}); err != nil {
		t.Fatal(err)
	}
	if q := <-got; q != "through-queue-name" {
		t.Fatalf("Message.Queue = %q", q)
	}
}
