package bench

import (
	"errors"
	"strconv"
	"testing"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/bench/internal/replyto"
)

// rawRPC starts a raw amqp091-go echo responder and returns a call through
// a raw direct reply-to requester, matched by correlation id.
func rawRPC(b *testing.B, concurrency int) func(int) error {
	server, client := rawConn(b), rawConn(b)
	sch, err := server.Channel()
	if err != nil {
		b.Fatal(err)
	}
	q := rpcQueue(b, sch)
	rawResponder(b, sch, q, concurrency)
	r := newRawRequester(b, client)
	return func(i int) error { return r.call(q, strconv.Itoa(i)) }
}

func rawConn(b *testing.B) *amqp.Connection {
	conn, err := amqp.Dial(brokerURL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	return conn
}

// rawResponder echoes every request to its reply-to with its correlation id.
func rawResponder(b *testing.B, ch *amqp.Channel, q string, prefetch int) {
	if err := ch.Qos(2*prefetch, 0, false); err != nil {
		b.Fatal(err)
	}
	deliveries, err := ch.Consume(q, "", false, false, false, false, nil)
	if err != nil {
		b.Fatal(err)
	}
	go func() {
		for d := range deliveries {
			_ = ch.Publish("", d.ReplyTo, false, false, amqp.Publishing{CorrelationId: d.CorrelationId, Body: d.Body})
			_ = d.Ack(false)
		}
	}()
}

// rawRequester is the textbook direct reply-to client: one channel consuming
// amq.rabbitmq.reply-to (no-ack) and publishing the requests.
type rawRequester struct {
	ch      *amqp.Channel
	replies *replyto.Router
}

func newRawRequester(b *testing.B, conn *amqp.Connection) *rawRequester {
	ch, err := conn.Channel()
	if err != nil {
		b.Fatal(err)
	}
	replies, err := replyto.Start(ch)
	if err != nil {
		b.Fatal(err)
	}
	return &rawRequester{ch: ch, replies: replies}
}

func (r *rawRequester) call(q, id string) error {
	c := r.replies.Expect(id)
	err := r.ch.Publish("", q, false, false, amqp.Publishing{ReplyTo: replyto.Queue, CorrelationId: id, Body: rpcBody})
	if err != nil {
		return err
	}
	if d := <-c; len(d.Body) != len(rpcBody) {
		return errors.New("short reply")
	}
	return nil
}
