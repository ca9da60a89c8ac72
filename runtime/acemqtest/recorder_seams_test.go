package acemqtest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

// bare hides every optional seam of the transport it holds.
type bare struct{ driver.Transport }

// memoryTransport opens a fresh memory:// transport closed with the test.
func memoryTransport(t *testing.T) driver.Transport {
	t.Helper()
	conn, err := acemq.Connect(context.Background(), "memory://recorder-seams-"+acemq.NewUUID())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn.Transport()
}

// replies opens a reply channel on rec whose deliveries arrive on the returned channel.
func replies(t *testing.T, rec *acemqtest.Recorder) (driver.ReplyChannel, chan driver.Delivery) {
	t.Helper()
	got := make(chan driver.Delivery, 1)
	rc, err := rec.OpenReplies(context.Background(), func(d driver.Delivery) { got <- d })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rc.Close() })
	return rc, got
}

// roundTrip publishes a request through rc and a reply to its address.
func roundTrip(t *testing.T, rec *acemqtest.Recorder, rc driver.ReplyChannel, got chan driver.Delivery) {
	t.Helper()
	ctx := context.Background()
	if _, err := rc.Publish(ctx, "", "requests", driver.Outbound{Body: []byte("q")}); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Publish(ctx, "", rc.Address(), driver.Outbound{Body: []byte("a")}); err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-got:
		if string(d.Body) != "a" {
			t.Errorf("reply %q, want a", d.Body)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no reply arrived")
	}
}

func TestRequestsThroughTheInnerReplyChannelAreRecordedWithTheirAddress(t *testing.T) {
	rec := acemqtest.NewRecorder(memoryTransport(t))
	rc, got := replies(t, rec)
	if !strings.HasPrefix(rc.Address(), "amq.rabbitmq.reply-to.") {
		t.Errorf("address %q, want memory's direct reply-to", rc.Address())
	}
	roundTrip(t, rec, rc, got)
	all := rec.Published()
	if len(all) != 2 || all[0].RoutingKey != "requests" || all[0].Outbound.ReplyTo != rc.Address() {
		t.Errorf("records %+v, want the request with ReplyTo %q first", all, rc.Address())
	}
}

func TestWithoutAReplySeamRepliesComeThroughAPrivateQueue(t *testing.T) {
	rec := acemqtest.NewRecorder(bare{memoryTransport(t)})
	rc, got := replies(t, rec)
	if !strings.HasPrefix(rc.Address(), "acemq-reply-") {
		t.Errorf("address %q, want an acemq-reply- queue", rc.Address())
	}
	roundTrip(t, rec, rc, got)
	if all := rec.Published(); len(all) != 2 || all[0].Outbound.ReplyTo != rc.Address() {
		t.Errorf("records %+v, want the request with ReplyTo %q first", all, rc.Address())
	}
}

func TestMissingSeamsFailOrReportUnblocked(t *testing.T) {
	rec := acemqtest.NewRecorder(bare{memoryTransport(t)})
	ctx := context.Background()
	if _, err := rec.MessageCount(ctx, "q"); err == nil || !strings.Contains(err.Error(), "cannot count") {
		t.Errorf("MessageCount error %v, want cannot count", err)
	}
	if _, _, err := rec.Pull(ctx, "q"); err == nil || !strings.Contains(err.Error(), "cannot pull") {
		t.Errorf("Pull error %v, want cannot pull", err)
	}
	if reason, blocked := rec.Blocked(); blocked || reason != "" {
		t.Errorf("Blocked = %q %v, want unblocked", reason, blocked)
	}
}

func TestSeamsPassThroughToTheInnerTransport(t *testing.T) {
	rec := acemqtest.NewRecorder(memoryTransport(t))
	ctx := context.Background()
	if err := rec.DeclareQueue(ctx, "q", driver.QueueSpec{}); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Publish(ctx, "", "q", driver.Outbound{Body: []byte("m")}); err != nil {
		t.Fatal(err)
	}
	if n, err := rec.MessageCount(ctx, "q"); err != nil || n != 1 {
		t.Fatalf("MessageCount = %d, %v; want 1", n, err)
	}
	d, ok, err := rec.Pull(ctx, "q")
	if err != nil || !ok || string(d.Body) != "m" {
		t.Errorf("Pull = %q %v %v, want m", d.Body, ok, err)
	}
}

func TestNewRecorderPanicsOnANilTransport(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "nil transport") {
			t.Errorf("recovered %v, want a nil transport panic", r)
		}
	}()
	acemqtest.NewRecorder(nil)
}

func TestARecordedConnKeepsItsTransportsCapabilitiesAndQueueAdmin(t *testing.T) {
	conn, _ := acemqtest.Connect(t)
	ctx := context.Background()
	if !conn.Supports(driver.CapabilityPublisherConfirms) {
		t.Fatal("a recorded memory:// connection lost its confirms capability")
	}
	if err := conn.DeclareQueue(ctx, "kept", acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	if ok, err := conn.QueueExists(ctx, "kept"); !ok || err != nil {
		t.Fatalf("QueueExists = %v, %v", ok, err)
	}
	if err := conn.DeleteQueue(ctx, "kept"); err != nil {
		t.Fatal(err)
	}
	if ok, err := conn.QueueExists(ctx, "kept"); ok || err != nil {
		t.Fatalf("after DeleteQueue, QueueExists = %v, %v", ok, err)
	}
}
