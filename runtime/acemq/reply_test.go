package acemq_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// replyConn connects to a private memory broker, closed with the test.
func replyConn(t *testing.T, opts ...acemq.ConnOption) *acemq.Conn {
	t.Helper()
	conn, err := acemq.Connect(context.Background(), "memory://reply-"+acemq.NewUUID(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func openReplies(t *testing.T, conn *acemq.Conn) (driver.ReplyChannel, chan driver.Delivery) {
	t.Helper()
	got := make(chan driver.Delivery, 4)
	rt, ok := conn.Transport().(driver.ReplyTransport)
	if !ok {
		t.Fatal("memory:// does not implement driver.ReplyTransport")
	}
	rc, err := rt.OpenReplies(context.Background(), func(d driver.Delivery) { got <- d })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rc.Close() })
	return rc, got
}

func receive(t *testing.T, ch chan driver.Delivery) driver.Delivery {
	t.Helper()
	select {
	case d := <-ch:
		return d
	case <-time.After(5 * time.Second):
		t.Fatal("nothing arrived")
		return driver.Delivery{}
	}
}

func TestMemoryReplyChannelReceivesWhatIsSentToItsAddressUntilClosed(t *testing.T) {
	conn := replyConn(t)
	rc, got := openReplies(t, conn)
	if !strings.HasPrefix(rc.Address(), "amq.rabbitmq.reply-to.") {
		t.Errorf("address %q, want RabbitMQ's direct reply-to form", rc.Address())
	}
	reply := driver.Outbound{MessageID: "r-1", CorrelationID: "c-1", Body: []byte("hi"), Mandatory: true}
	if res, err := conn.PublishRaw(context.Background(), "", rc.Address(), reply); err != nil || !res.Routed {
		t.Fatalf("reply: %+v, %v", res, err)
	}
	if d := receive(t, got); d.CorrelationID != "c-1" || string(d.Body) != "hi" {
		t.Errorf("got %+v", d)
	}
	if err := rc.Close(); err != nil {
		t.Fatal(err)
	}
	if res, err := conn.PublishRaw(context.Background(), "", rc.Address(), reply); err != nil || res.Routed {
		t.Errorf("after Close the address reaches no queue: %+v, %v", res, err)
	}
}

func TestMemoryReplyChannelStampsItsAddressOnRequests(t *testing.T) {
	conn := replyConn(t)
	if err := conn.DeclareQueue(context.Background(), "requests", acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	rc, _ := openReplies(t, conn)
	headers := map[string]any{driver.ReplyToHeader: "stale"}
	msg := driver.Outbound{MessageID: "q-1", ReplyTo: "stale", Headers: headers}
	if _, err := rc.Publish(context.Background(), "", "requests", msg); err != nil {
		t.Fatal(err)
	}
	d, ok, err := conn.Pull(context.Background(), "requests")
	if err != nil || !ok {
		t.Fatalf("pull: %v %v", ok, err)
	}
	if d.ReplyTo != rc.Address() || d.Headers[driver.ReplyToHeader] != rc.Address() || headers[driver.ReplyToHeader] != "stale" {
		t.Errorf("reply-to %q header %v (caller's map now %v), want %q and the caller's map untouched",
			d.ReplyTo, d.Headers[driver.ReplyToHeader], headers[driver.ReplyToHeader], rc.Address())
	}
}

func TestThroughPublisherRunsTheInterceptorsThenHandsTheMessageToItsFunc(t *testing.T) {
	conn := replyConn(t, acemq.WithPublishInterceptor(func(_ context.Context, c *acemq.PublishContext) error {
		c.SetHeader("x-seen", "yes")
		return nil
	}))
	var sent driver.Outbound
	p := acemq.Through(acemq.NewPublisher[string](conn, "ex", "key"),
		func(_ context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
			sent = msg
			return acemq.PublishResult{MessageID: msg.MessageID, Routed: exchange == "ex" && key == "other"}, nil
		})
	res, err := acemq.SendTo(context.Background(), p, "ex", "other", "payload")
	if err != nil || !res.Routed {
		t.Fatalf("SendTo: %+v, %v", res, err)
	}
	if sent.Headers["x-seen"] != "yes" || string(sent.Body) != `"payload"` || sent.Headers[semconv.HeaderType] != "other" {
		t.Errorf("sent %+v", sent)
	}
	_ = conn.Close()
	if _, err := p.SendResult(context.Background(), "late"); !errors.Is(err, acemq.ErrClosed) {
		t.Errorf("after the connection closed: %v, want ErrClosed", err)
	}
}

func TestConsumedEnvelopeTakesReplyToAndCorrelationFromAMQPProperties(t *testing.T) {
	conn := replyConn(t)
	if err := conn.DeclareQueue(context.Background(), "props", acemq.Transient()); err != nil {
		t.Fatal(err)
	}
	got := make(chan acemq.Envelope, 2)
	c, err := acemq.Consume(context.Background(), conn, "props", func(_ context.Context, m acemq.Message[[]byte]) acemq.Ack {
		got <- m.Envelope
		return acemq.Accept()
	}, acemq.ConsumeWith(acemq.BytesCodec{}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	raw := driver.Outbound{MessageID: "m-1", ReplyTo: "replies", CorrelationID: "raw-corr"}
	family := raw
	family.Headers = map[string]any{semconv.HeaderCorrelation: "family-corr"}
	for _, msg := range []driver.Outbound{raw, family} {
		if _, err := conn.PublishRaw(context.Background(), "", "props", msg); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"raw-corr", "family-corr"} {
		env := <-got
		if env.ReplyTo != "replies" || env.CorrelationID != want {
			t.Errorf("envelope reply-to %q correlation %q, want replies and %q", env.ReplyTo, env.CorrelationID, want)
		}
	}
}

func TestConsumeCodecIsWhatTheConsumerDecodesWith(t *testing.T) {
	conn := replyConn(t)
	if c, err := acemq.ConsumeCodec(conn); err != nil || c != conn.Codec() {
		t.Errorf("default: %v, %v", c, err)
	}
	if c, err := acemq.ConsumeCodec(conn, acemq.ConsumeWith(acemq.BytesCodec{})); err != nil || c != (acemq.BytesCodec{}) {
		t.Errorf("ConsumeWith: %v, %v", c, err)
	}
	if _, err := acemq.ConsumeCodec(conn, acemq.ConsumeWith(nil)); err == nil {
		t.Error("an invalid option is refused")
	}
}
