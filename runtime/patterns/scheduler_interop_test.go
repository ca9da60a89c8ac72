package patterns

import (
	"context"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

func TestFamilyScheduledMessageByRawAMQPIsDeliveredByTheGoScheduler(t *testing.T) {
	url := vhostURL(t, scheduleVhost)
	conn := schedConn(t, url)
	startScheduler(t, conn) // declares the ladder
	q, got := destination(t, conn, url)
	due := time.Now().Add(1500 * time.Millisecond)
	// As a family scheduler puts a message on the ladder (FAMILY-SPEC §2.3,
	// §2.4): bytes under application/octet-stream on the 1s rung, the
	// x-schedule-* headers saying where to and when.
	err := rawChannel(t, url).PublishWithContext(context.Background(), semconv.ScheduleExchange, semconv.ScheduleRung1s, true, false,
		amqp.Publishing{ContentType: "application/octet-stream", DeliveryMode: amqp.Persistent, Body: []byte(`{"n":7,"text":"from java"}`),
			Headers: amqp.Table{
				"x-acemq-id": "family-1", "x-acemq-type": semconv.ScheduledMessageType,
				semconv.HeaderScheduleExchange: "", semconv.HeaderScheduleRoutingKey: q,
				semconv.HeaderScheduleDueAt: due.UnixMilli(), semconv.HeaderScheduleContentType: "application/json",
			}})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the family's message arrives", func() bool { return len(got.all()) == 1 })
	a := got.all()[0]
	if a.msg.Payload != (reminder{N: 7, Text: "from java"}) || a.msg.Envelope.Type != semconv.ScheduledMessageType || a.at.Before(time.UnixMilli(due.UnixMilli())) {
		t.Errorf("arrived %+v type %s at %s; want the payload, type ScheduledMessage, not before %s", a.msg.Payload, a.msg.Envelope.Type, a.at, due)
	}
	if _, left := a.msg.Envelope.Headers[semconv.HeaderScheduleDueAt]; left {
		t.Errorf("the bookkeeping headers were not stripped: %v", a.msg.Envelope.Headers)
	}
}

func TestGoScheduledMessageReadOffTheDueQueueByRawAMQPCarriesTheFamilysHeaders(t *testing.T) {
	url := vhostURL(t, scheduleVhost)
	conn := schedConn(t, url) // no scheduler: the message stays on the due queue
	s, err := acemq.NewPublisher[reminder](conn, "orders", "order.remind").SendAfter(context.Background(), 1200*time.Millisecond, reminder{N: 3})
	if err != nil {
		t.Fatal(err)
	}
	ch := rawChannel(t, url)
	var d amqp.Delivery
	waitFor(t, 10*time.Second, "the message reaches "+semconv.ScheduleDueQueue, func() bool {
		m, ok, err := ch.Get(semconv.ScheduleDueQueue, false)
		if err != nil || !ok {
			return false
		}
		if m.Headers[semconv.HeaderID] != s.ID() {
			_ = m.Nack(false, true) // another test's message: leave it
			return false
		}
		d = m
		return d.Ack(false) == nil
	})
	h := d.Headers
	want := map[string]any{
		semconv.HeaderScheduleExchange: "orders", semconv.HeaderScheduleRoutingKey: "order.remind",
		semconv.HeaderScheduleDueAt: s.DueAt().UnixMilli(), semconv.HeaderScheduleContentType: "application/json",
		semconv.HeaderType: "order.remind",
	}
	for name, v := range want {
		if h[name] != v {
			t.Errorf("%s = %#v, want %#v", name, h[name], v)
		}
	}
	if d.ContentType != "application/octet-stream" || d.DeliveryMode != amqp.Persistent || string(d.Body) != `{"n":3,"text":""}` {
		t.Errorf("content type %q, delivery mode %d, body %s", d.ContentType, d.DeliveryMode, d.Body)
	}
	deaths, _ := h["x-death"].([]any)
	if len(deaths) == 0 || deaths[0].(amqp.Table)["queue"] != semconv.ScheduleRung1s {
		t.Errorf("x-death %v: want it to have waited on %s", h["x-death"], semconv.ScheduleRung1s)
	}
}

func TestScheduleLadderIsDeclaredWithTheFamilysArguments(t *testing.T) {
	url := vhostURL(t, scheduleVhost)
	startScheduler(t, schedConn(t, url))
	ch := rawChannel(t, url)
	// A passive-equivalent redeclaration with the family's exact table
	// succeeds only if the ladder was declared with exactly it.
	for _, r := range []struct {
		name string
		ttl  int64
	}{{semconv.ScheduleRung1h, 3600000}, {semconv.ScheduleRung10m, 600000}, {semconv.ScheduleRung1m, 60000},
		{semconv.ScheduleRung10s, 10000}, {semconv.ScheduleRung1s, 1000}} {
		_, err := ch.QueueDeclare(r.name, true, false, false, false, amqp.Table{
			"x-message-ttl": r.ttl, "x-dead-letter-exchange": semconv.ScheduleExchange, "x-dead-letter-routing-key": semconv.ScheduleDueQueue})
		if err != nil {
			t.Fatalf("the family's declaration of %s: %v", r.name, err)
		}
	}
	if _, err := ch.QueueDeclare(semconv.ScheduleDueQueue, true, false, false, false, nil); err != nil {
		t.Fatalf("the family's declaration of %s: %v", semconv.ScheduleDueQueue, err)
	}
}
