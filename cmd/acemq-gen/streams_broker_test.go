package main

import (
	"context"
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/generator/contractspec"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

const streamsOpsContract = `acemq: 1
domain: DOMAIN
streams:
  Audit:
    max-age: 7d
    max-bytes: 1000000000
    fields: {id: string}
  Drifted:
    max-age: 7d
    fields: {id: string}
  Classic:
    fields: {id: string}
  Missing:
    fields: {id: string}
`

// TestPlanComparesAStreamsTypeAndRetentionWithTheBroker declares one
// stream as the contract says, one with another max-age, one as a classic
// queue and none for the fourth, and expects plan to tell each apart.
func TestPlanComparesAStreamsTypeAndRetentionWithTheBroker(t *testing.T) {
	r := newOpsRig(t, streamsOpsContract)
	mgmt := acemqtest.ManagementURL(t)
	if err := contractspec.Stream(r.entry("Audit")).Apply(context.Background(), r.conn); err != nil {
		t.Fatal(err)
	}
	drifted, classic, missing := r.entry("Drifted"), r.entry("Classic"), r.entry("Missing")
	seed(t, r.url, func(ch *amqp.Channel) error {
		if _, err := ch.QueueDeclare(drifted.Queue, true, false, false, false, amqp.Table{driver.ArgQueueType: "stream", "x-max-age": "1D"}); err != nil {
			return err
		}
		_, err := ch.QueueDeclare(classic.Queue, true, false, false, false, nil)
		return err
	})
	code, out, errOut := cli(t, "plan", "--url", r.url, "--management", mgmt, r.dir)
	if code != exitFindings {
		t.Fatalf("exit %d; want 1:\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"queue " + drifted.Queue + ": argument x-max-age expected 7D, actual 1D",
		"immutable queue " + classic.Queue + ": type expected stream, actual classic",
		"missing queue " + missing.Queue + ": durable, stream",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, r.entry("Audit").Queue+":") {
		t.Errorf("plan reports the stream declared as the contract says:\n%s", out)
	}
}

// TestDLQListsShowsAndRedrivesAStreamsDeadLettersBackToTheStream seeds a
// record in {stream}.dlq, as a reader's Reject copies it there, and expects
// dlq to list it under the stream and redrive it by appending it to the stream.
func TestDLQListsShowsAndRedrivesAStreamsDeadLettersBackToTheStream(t *testing.T) {
	r := newOpsRig(t, streamsOpsContract)
	ctx := context.Background()
	audit := r.entry("Audit")
	if err := contractspec.Stream(audit).Apply(ctx, r.conn); err != nil {
		t.Fatal(err)
	}
	dlq := acemq.DeadLetterQueue(audit.Queue)
	seed(t, r.url, func(ch *amqp.Channel) error {
		if _, err := ch.QueueDeclare(dlq, true, false, false, false, nil); err != nil {
			return err
		}
		return ch.PublishWithContext(ctx, "", dlq, false, false, amqp.Publishing{ContentType: "application/json",
			Body: []byte(`{"id":"a-1"}`), MessageId: "m-1", Headers: amqp.Table{semconv.HeaderType: audit.Type,
				semconv.HeaderID: "m-1", semconv.HeaderError: "the handler rejected it: bad record"}})
	})
	t.Cleanup(func() {
		seed(t, r.url, func(ch *amqp.Channel) error { _, err := ch.QueueDelete(dlq, false, false, false); return err })
	})
	r.waitCount(dlq, 1)

	code, out, errOut := r.cli("dlq", "list", "--url", r.url, r.dir)
	if code != exitOK || !strings.Contains(collapse(out), collapse(dlq+"  1 messages")) ||
		!strings.Contains(out, "stream Audit ("+audit.Type+")") {
		t.Fatalf("dlq list: exit %d:\n%s%s", code, out, errOut)
	}
	code, out, errOut = r.cli("dlq", "show", "--url", r.url, dlq, r.dir)
	if code != exitOK || !strings.Contains(out, "a-1") {
		t.Fatalf("dlq show: exit %d:\n%s%s", code, out, errOut)
	}
	code, out, errOut = r.cli("dlq", "redrive", "--url", r.url, dlq, r.dir)
	if code != exitOK || !strings.Contains(out, "moved 1 to queue "+audit.Queue) {
		t.Fatalf("dlq redrive: exit %d:\n%s%s", code, out, errOut)
	}
	r.waitCount(dlq, 0)
	if body := firstRecord(t, r.url, audit.Queue); !strings.Contains(body, "a-1") {
		t.Errorf("the stream's first record is %q; want the redriven one", body)
	}
}

// firstRecord reads a stream's first record with a raw amqp091-go consumer.
func firstRecord(t *testing.T, url, stream string) string {
	t.Helper()
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.Qos(10, 0, false); err != nil {
		t.Fatal(err)
	}
	ds, err := ch.Consume(stream, "", false, false, false, false, amqp.Table{"x-stream-offset": "first"})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-ds:
		return string(d.Body)
	case <-time.After(opsWait):
		t.Fatalf("no record on stream %s", stream)
	}
	return ""
}
