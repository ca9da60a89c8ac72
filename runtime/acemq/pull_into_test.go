package acemq_test

import (
	"context"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

type pulledOrder struct {
	ID    string `json:"id"`
	Total int    `json:"total"`
}

func TestPullIntoDecodesWithTheConnectionsCodecAndReadsTheEnvelope(t *testing.T) {
	conn, ctx := familyConn(t, ""), context.Background()
	mustDeclare(t, conn, "orders")
	err := acemq.NewPublisher[pulledOrder](conn, "", "orders").Send(ctx, pulledOrder{ID: "o-1", Total: 42},
		acemq.CorrelationID("corr-7"), acemq.Header("x-tenant", "acme"))
	if err != nil {
		t.Fatal(err)
	}
	m, ok, err := acemq.PullInto[pulledOrder](ctx, conn, "orders")
	if err != nil || !ok {
		t.Fatalf("ok=%v err=%v", ok, err)
	}
	if m.Payload != (pulledOrder{ID: "o-1", Total: 42}) || m.Envelope.CorrelationID != "corr-7" ||
		m.Envelope.Headers["x-tenant"] != "acme" || m.RoutingKey != "orders" || m.ContentType != "application/json" {
		t.Fatalf("got %+v", m)
	}
	if n, _ := conn.MessageCount(ctx, "orders"); n != 0 {
		t.Fatalf("the pulled message is still on the queue (%d)", n)
	}
}

func TestPullIntoOnAnEmptyQueueIsNotOK(t *testing.T) {
	conn := familyConn(t, "")
	mustDeclare(t, conn, "empty")
	m, ok, err := acemq.PullInto[pulledOrder](context.Background(), conn, "empty")
	if err != nil || ok || m.Payload != (pulledOrder{}) {
		t.Fatalf("ok=%v err=%v m=%+v", ok, err, m)
	}
}

// rawIn declares queue on a family connection and publishes msg to it raw.
func rawIn(t *testing.T, queue string, msg driver.Outbound) (*acemq.Conn, context.Context) {
	t.Helper()
	conn, ctx := familyConn(t, ""), context.Background()
	mustDeclare(t, conn, queue)
	if _, err := conn.PublishRaw(ctx, "", queue, msg); err != nil {
		t.Fatal(err)
	}
	return conn, ctx
}

func TestPullIntoDecodesWithConsumeWith(t *testing.T) {
	conn, ctx := rawIn(t, "notes", driver.Outbound{Body: []byte("hello"), ContentType: "text/plain; charset=utf-8", MessageID: "m-1"})
	m, ok, err := acemq.PullInto[string](ctx, conn, "notes", acemq.ConsumeWith(acemq.StringCodec{}))
	if err != nil || !ok || m.Payload != "hello" || m.Envelope.ID != "m-1" {
		t.Fatalf("ok=%v err=%v m=%+v", ok, err, m)
	}
}

func TestPullIntoReturnsTheSettledMessageWithAFatalErrorWhenItDoesNotDecode(t *testing.T) {
	conn, ctx := rawIn(t, "orders", driver.Outbound{Body: []byte("not json"), ContentType: "text/plain", MessageID: "m-2"})
	m, ok, err := acemq.PullInto[pulledOrder](ctx, conn, "orders")
	if !ok || !acemq.IsFatal(err) || string(m.Body) != "not json" || m.Envelope.ID != "m-2" {
		t.Fatalf("ok=%v err=%v m=%+v", ok, err, m)
	}
	if err.Error() != `acemq: cannot decode the message pulled from "orders": no codec reads "text/plain"` {
		t.Fatalf("got %q", err)
	}
}

func TestPullIntoRefusesANilOptionBeforeTakingAMessage(t *testing.T) {
	conn, ctx := familyConn(t, ""), context.Background()
	mustDeclare(t, conn, "orders")
	publishRaw(t, conn, "", "orders")
	if _, _, err := acemq.PullInto[pulledOrder](ctx, conn, "orders", nil); err == nil {
		t.Fatal("a nil option was accepted")
	}
	if n, _ := conn.MessageCount(ctx, "orders"); n != 1 {
		t.Fatalf("the message was taken: %d left", n)
	}
}

func TestPullIntoThroughATransportThatCannotPullSaysSo(t *testing.T) {
	_, _, err := acemq.PullInto[pulledOrder](context.Background(), bareConn(t), "orders")
	if err == nil || !strings.Contains(err.Error(), "cannot pull from a queue") {
		t.Fatalf("got %v", err)
	}
}
