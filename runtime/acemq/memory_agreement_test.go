package acemq

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// The broker behaviours shared with the RabbitMQ transport are pinned by
// acemqtest.TransportConformance; these tests cover memory's corners of them.

func TestMemoryRefusesHeadersAMQPCannotCarry(t *testing.T) {
	tr := dialTest(t, "")
	mustDeclareQueue(t, tr, "q", nil)
	for name, v := range map[string]any{"struct": struct{}{}, "huge": uint64(math.MaxUint64), "nested": []any{func() {}}} {
		_, err := tr.Publish(context.Background(), "", "q", driver.Outbound{MessageID: "m", Headers: map[string]any{name: v}})
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("header %s = %T: %v, want a refusal naming the header", name, v, err)
		}
	}
	if n, _ := tr.(driver.QueueInspector).MessageCount(context.Background(), "q"); n != 0 {
		t.Errorf("refused publishes left %d messages, want 0", n)
	}
}

func TestMemoryHeadersArePublishedAsCopies(t *testing.T) {
	tr := dialTest(t, "")
	mustDeclareQueue(t, tr, "q", nil)
	nested := map[string]any{"n": 1}
	h := map[string]any{"t": nested}
	if _, err := tr.Publish(context.Background(), "", "q", driver.Outbound{MessageID: "m", Headers: h}); err != nil {
		t.Fatal(err)
	}
	nested["n"] = 2
	d, _, _ := tr.(driver.Puller).Pull(context.Background(), "q")
	if got := d.Headers["t"].(map[string]any)["n"]; got != int32(1) {
		t.Errorf("nested header = %#v after the publisher changed its map, want int32(1)", got)
	}
}

func TestMemoryRejectPublishDLXDeadLettersTheOverflow(t *testing.T) {
	ctx := context.Background()
	tr := dialTest(t, "")
	boundQueue(t, tr, "dlx", "fanout", "dead", "")
	mustDeclareQueue(t, tr, "q", map[string]any{"x-max-length": 1, "x-overflow": "reject-publish-dlx", "x-dead-letter-exchange": "dlx"})
	mustPublish(t, tr, "", "q", "fits")
	_, err := tr.Publish(ctx, "", "q", driver.Outbound{MessageID: "spills", Body: []byte("spills")})
	if !errors.Is(err, ErrBrokerRefused) || !strings.Contains(err.Error(), "reject-publish-dlx") {
		t.Fatalf("overflow publish: %v, want ErrBrokerRefused naming the overflow", err)
	}
	d, ok, _ := tr.(driver.Puller).Pull(ctx, "dead")
	if !ok || d.MessageID != "spills" || d.Headers["x-first-death-reason"] != "maxlen" {
		t.Fatalf("dead-lettered %+v (%v), want spills dead for maxlen", d, ok)
	}
}

func TestMemoryWithoutConfirmsAFullQueueDropsTheOverflowSilently(t *testing.T) {
	tr := dialTest(t, "?confirms=off")
	mustDeclareQueue(t, tr, "q", map[string]any{"x-max-length": 1, "x-overflow": "reject-publish"})
	mustPublish(t, tr, "", "q", "fits")
	if res := mustPublish(t, tr, "", "q", "lost"); res.Confirmed {
		t.Errorf("result = %+v, want unconfirmed", res)
	}
	if n, _ := tr.(driver.QueueInspector).MessageCount(context.Background(), "q"); n != 1 {
		t.Errorf("queue holds %d, want 1", n)
	}
}

func TestMemoryExclusiveQueueRefusesAnotherConnectionsPullCountAndBind(t *testing.T) {
	ctx := context.Background()
	owner, other := dialTest(t, ""), dialTest(t, "")
	if err := owner.DeclareQueue(ctx, "mine", driver.QueueSpec{Exclusive: true}); err != nil {
		t.Fatal(err)
	}
	_, _, pullErr := other.(driver.Puller).Pull(ctx, "mine")
	_, countErr := other.(driver.QueueInspector).MessageCount(ctx, "mine")
	bindErr := other.Bind(ctx, "mine", "amq.direct", "k")
	for what, err := range map[string]error{"pull": pullErr, "count": countErr, "bind": bindErr} {
		if err == nil || !strings.Contains(err.Error(), "RESOURCE_LOCKED") {
			t.Errorf("%s from another connection: %v, want RESOURCE_LOCKED", what, err)
		}
	}
	if err := owner.Bind(ctx, "mine", "amq.direct", "k"); err != nil {
		t.Errorf("the owner binding its queue: %v", err)
	}
}

// A publish to an exchange that does not exist is refused as RabbitMQ's
// channel close is: ErrBrokerRefused, never sent again.
func TestMemoryPublishToAMissingExchangeIsErrBrokerRefused(t *testing.T) {
	conn, err := Connect(context.Background(), "memory://"+NewUUID())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = NewPublisher[string](conn, "no-such-exchange", "k").Send(context.Background(), "x")
	if !errors.Is(err, ErrBrokerRefused) || !strings.Contains(err.Error(), "404 NOT_FOUND") {
		t.Errorf("publish to a missing exchange: %v, want ErrBrokerRefused with the 404", err)
	}
}
