package rabbitmq

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// replyRig opens a transport, a request queue and a direct reply-to channel.
func replyRig(t *testing.T) (*Transport, string, driver.ReplyChannel, *inbox) {
	tr := openTransport(t)
	q := newCleaner(t).queue(unique("reply-requests"))
	if err := tr.DeclareQueue(ctxT(t), q, driver.QueueSpec{}); err != nil {
		t.Fatal(err)
	}
	box := newInbox()
	rc, err := tr.OpenReplies(ctxT(t), box.deliver)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rc.Close() })
	return tr, q, rc, box
}

// roundTrip publishes a request on rc, answers it from the queue and
// returns the reply rc received.
func roundTrip(t *testing.T, tr *Transport, q string, rc driver.ReplyChannel, box *inbox) (request, reply driver.Delivery) {
	t.Helper()
	msg := driver.Outbound{MessageID: acemq.NewUUID(), Headers: map[string]any{driver.ReplyToHeader: "?"}, Mandatory: true}
	if res, err := rc.Publish(ctxT(t), "", q, msg); err != nil || !res.Routed || !res.Confirmed {
		t.Fatalf("request: %+v, %v", res, err)
	}
	requests, sub := consumeInbox(ctxT(t), t, tr, q, 1)
	defer sub.Close()
	request = requests.next(t)
	_ = request.Ack()
	answer := driver.Outbound{MessageID: acemq.NewUUID(), CorrelationID: request.MessageID, Body: []byte("ok")}
	if _, err := tr.Publish(ctxT(t), "", request.ReplyTo, answer); err != nil {
		t.Fatal(err)
	}
	return request, box.next(t)
}

func TestDirectReplyToStampsTheBrokersAddressAndReceivesTheReply(t *testing.T) {
	tr, q, rc, box := replyRig(t)
	if !strings.HasPrefix(rc.Address(), "amq.rabbitmq.reply-to.") {
		t.Fatalf("address %q, want the broker's direct reply-to address", rc.Address())
	}
	request, reply := roundTrip(t, tr, q, rc, box)
	if request.ReplyTo != rc.Address() || request.Headers[driver.ReplyToHeader] != rc.Address() {
		t.Errorf("request reply-to %q header %v, want both %q", request.ReplyTo, request.Headers[driver.ReplyToHeader], rc.Address())
	}
	if reply.CorrelationID != request.MessageID || string(reply.Body) != "ok" {
		t.Errorf("reply %+v", reply)
	}
}

func TestDirectReplyChannelReopensAfterAChannelError(t *testing.T) {
	tr, q, rc, box := replyRig(t)
	before := rc.Address()
	_, err := rc.Publish(ctxT(t), unique("no-such-exchange"), "k", driver.Outbound{MessageID: "x"})
	if err == nil {
		t.Fatal("publishing to a missing exchange succeeded")
	}
	request, reply := roundTrip(t, tr, q, rc, box)
	if rc.Address() == before || request.ReplyTo != rc.Address() || string(reply.Body) != "ok" {
		t.Errorf("after the channel error: address %q (before %q), request reply-to %q, reply %q",
			rc.Address(), before, request.ReplyTo, reply.Body)
	}
}

func TestDirectReplyChannelReopensAfterTheConnectionRecovers(t *testing.T) {
	tr, q, rc, box := replyRig(t)
	before := rc.Address()
	tr.dropConnection()
	request, reply := roundTrip(t, tr, q, rc, box)
	if rc.Address() == before || request.ReplyTo != rc.Address() || string(reply.Body) != "ok" {
		t.Errorf("after recovery: address %q (before %q), reply %q", rc.Address(), before, reply.Body)
	}
}

func TestClosedDirectReplyChannelRefusesToPublish(t *testing.T) {
	_, q, rc, _ := replyRig(t)
	if err := rc.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := rc.Publish(context.Background(), "", q, driver.Outbound{MessageID: "x"}); !errors.Is(err, acemq.ErrClosed) {
		t.Errorf("err = %v, want ErrClosed", err)
	}
	if err := rc.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}
