package patterns

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/yaml"
)

// These tests put a raw amqp091-go requester and responder on the broker
// that behave as the family's Python library (AceMQ-Company/acemq-python-amqp)
// does; the Python lines each imitates are quoted beside it, from the
// repository's files as of commit 06fa92d0b75b254d2f916dc2574a068a40f475f8.

// rawChannel opens a channel on its own connection to url, closed at cleanup.
func rawChannel(t *testing.T, url string) *amqp.Channel {
	t.Helper()
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	ch, err := conn.Channel()
	if err != nil {
		t.Fatalf("channel: %v", err)
	}
	return ch
}

// pythonRequester is the Python Requester: a generated reply queue it
// consumes with its codec, decoding every reply before it looks at a header.
type pythonRequester struct {
	ch      *amqp.Channel
	codec   acemq.Codec
	queue   string
	replies <-chan amqp.Delivery
}

// pythonReply is what the Python requester makes of a reply: the decode
// error that parks it (or, with no .parked queue, drops it, so the caller
// waits out its deadline), else the payload and the acemq-error header.
type pythonReply struct {
	decodeErr error
	payload   any
	failure   string
	headers   amqp.Table
}

func newPythonRequester(t *testing.T, url string, codec acemq.Codec) *pythonRequester {
	t.Helper()
	ch := rawChannel(t, url)
	// src/acemq_amqp/patterns/requestreply.py, Requester.open:
	//   queue = reply_queue or f"acemq-reply-{uuid.uuid4().hex}"
	//   ... durable=not generated, auto_delete=generated, exclusive=generated,
	//   requester._consumer = await connection.consume(
	//       queue, requester._receive, codec=codec, declare=False)
	queue := "acemq-reply-" + strings.ReplaceAll(acemq.NewUUID(), "-", "")
	if _, err := ch.QueueDeclare(queue, false, true, true, false, nil); err != nil {
		t.Fatalf("declare %s: %v", queue, err)
	}
	replies, err := ch.Consume(queue, "", false, false, false, false, nil)
	if err != nil {
		t.Fatalf("consume %s: %v", queue, err)
	}
	return &pythonRequester{ch: ch, codec: codec, queue: queue, replies: replies}
}

// ask sends req to queue as Requester.ask does and returns its reply.
func (p *pythonRequester) ask(t *testing.T, queue string, req any) pythonReply {
	t.Helper()
	id, corr := acemq.NewUUID(), acemq.NewUUID()
	body, err := p.codec.Encode(req)
	if err != nil {
		t.Fatal(err)
	}
	// src/acemq_amqp/patterns/requestreply.py, Requester.ask:
	//   outgoing = outgoing.with_(correlation_id=correlation,
	//       headers={**outgoing.headers, HEADER_REPLY_TO: self._reply_queue})
	//   await self._publisher.send(request, envelope=outgoing, reply_to=self._reply_queue)
	msg := amqp.Publishing{ContentType: p.codec.ContentType(), MessageId: id, ReplyTo: p.queue,
		DeliveryMode: amqp.Persistent, Body: body, Headers: amqp.Table{
			semconv.HeaderID: id, semconv.HeaderCorrelation: corr, semconv.HeaderType: queue, HeaderReplyTo: p.queue}}
	if err := p.ch.PublishWithContext(context.Background(), "", queue, false, false, msg); err != nil {
		t.Fatalf("publish: %v", err)
	}
	return p.await(t, corr)
}

// await receives the reply to corr as the Python consumer does.
func (p *pythonRequester) await(t *testing.T, corr string) pythonReply {
	t.Helper()
	deadline := time.After(testWait)
	for {
		select {
		case d := <-p.replies:
			_ = d.Ack(false)
			if got, _ := d.Headers[semconv.HeaderCorrelation].(string); got == corr {
				return p.read(d)
			}
		case <-deadline:
			t.Fatalf("no reply to %s: the Python requester waits out its deadline", corr)
		}
	}
}

// read is the Python consumer's handling of one reply.
func (p *pythonRequester) read(d amqp.Delivery) pythonReply {
	// src/acemq_amqp/connection.py, Consumer._handle_one:
	//   try:
	//       payload = self._codec.decode(delivery.body, delivery.content_type)
	//   except Exception as failure:
	//       ...
	//       await self._park(
	//           delivery, envelope, f"could not be decoded: {_describe(failure)}"
	//       )
	//       return
	var payload any
	if err := p.codec.Decode(d.Body, &payload); err != nil {
		return pythonReply{decodeErr: err}
	}
	// src/acemq_amqp/patterns/requestreply.py, Requester.ask, once the reply has been decoded:
	//   failure = answer.envelope.headers.get(HEADER_ERROR)
	//   if failure:
	//       raise ResponderError(...)
	failure, _ := d.Headers[HeaderError].(string)
	return pythonReply{payload: payload, failure: failure, headers: d.Headers}
}

// Item 11 of issue 23: a Python requester, which decodes every reply with
// the RPC's codec before it reads acemq-error, reads our failure replies —
// declared and generic — in JSON (the family's default) and YAML.
func TestPythonStyleRequesterReadsOurFailureReplies(t *testing.T) {
	r := &rig{t: t, url: brokerURL(t), broker: true}
	for name, codec := range map[string]acemq.Codec{"json": acemq.JSONCodec{}, "yaml": yaml.Codec{}} {
		t.Run(name, func(t *testing.T) {
			conn := r.conn()
			q := r.queue(conn, "py-requester-"+name)
			serve(t, conn, q, func(_ context.Context, m acemq.Message[int]) (int, error) {
				switch {
				case m.Payload < 0:
					return 0, errNotFound
				case m.Payload == 0:
					return 0, errors.New("the database is down")
				}
				return 2 * m.Payload, nil
			}, acemq.ConsumeWith(codec))
			py := newPythonRequester(t, r.url, codec)
			checkPythonReads(t, py, q)
		})
	}
}

// checkPythonReads asks q for an answer, a declared failure and a generic one.
func checkPythonReads(t *testing.T, py *pythonRequester, q string) {
	t.Helper()
	if got := py.ask(t, q, 21); got.decodeErr != nil || got.failure != "" || fmt.Sprint(got.payload) != "42" {
		t.Errorf("answer: %+v, want 42", got)
	}
	declared := py.ask(t, q, -1)
	if declared.decodeErr != nil {
		t.Fatalf("the Python requester cannot decode our declared failure reply: %v", declared.decodeErr)
	}
	if code, _ := declared.headers[HeaderErrorCode].(string); declared.failure != "NotFound" || code != "NotFound" || declared.payload != nil {
		t.Errorf("declared failure: acemq-error %q, acemq-error-code %q, payload %v; want NotFound, NotFound, None",
			declared.failure, code, declared.payload)
	}
	generic := py.ask(t, q, 0)
	if generic.decodeErr != nil {
		t.Fatalf("the Python requester cannot decode our generic failure reply: %v", generic.decodeErr)
	}
	if !strings.HasPrefix(generic.failure, "the responder failed (message ") || strings.Contains(generic.failure, "database") {
		t.Errorf("generic failure: acemq-error %q, want the generic text without the handler's", generic.failure)
	}
}

// pythonResponder is Python's serve() on queue: each request is decoded
// (JSON), then answered with respond's answer, or, when respond names an
// exception class, with the failure reply Python's _reply sends.
func pythonResponder(t *testing.T, url, queue string, respond func(n int) (answer int, class, text string)) {
	t.Helper()
	ch := rawChannel(t, url)
	deliveries, err := ch.Consume(queue, "", false, false, false, false, nil)
	if err != nil {
		t.Fatalf("consume %s: %v", queue, err)
	}
	go func() {
		for d := range deliveries {
			pythonAnswer(t, ch, d, respond)
		}
	}()
}

// pythonAnswer replies to one request as requestreply.py's handle and
// _reply do.
func pythonAnswer(t *testing.T, ch *amqp.Channel, d amqp.Delivery, respond func(int) (int, string, string)) {
	var n int
	_ = acemq.JSONCodec{}.Decode(d.Body, &n)
	// src/acemq_amqp/patterns/requestreply.py, serve.handle:
	//   reply_to = str(request.envelope.headers.get(HEADER_REPLY_TO) or "") or request.reply_to
	replyTo, _ := d.Headers[HeaderReplyTo].(string)
	if replyTo == "" {
		replyTo = d.ReplyTo
	}
	answer, class, text := respond(n)
	// src/acemq_amqp/patterns/requestreply.py, _reply (answer is None after a failure):
	//   headers: Mapping[str, Any] = (
	//       {HEADER_ERROR: f"{type(failure).__name__}: {failure}"} if failure else {}
	//   )
	//   await connection.publisher("", reply_to, codec=codec).send(
	//       answer,
	//       envelope=Envelope(
	//           correlation_id=request.envelope.correlation_id,
	//           causation_id=request.envelope.id, ...
	corr, _ := d.Headers[semconv.HeaderCorrelation].(string)
	causation, _ := d.Headers[semconv.HeaderID].(string)
	headers := amqp.Table{semconv.HeaderID: acemq.NewUUID(), semconv.HeaderCorrelation: corr, semconv.HeaderCausation: causation}
	var payload any = answer
	if class != "" {
		headers[HeaderError] = class + ": " + text
		payload = nil
	}
	body, _ := acemq.JSONCodec{}.Encode(payload) // json.dumps(None) is "null"
	msg := amqp.Publishing{ContentType: "application/json", MessageId: headers[semconv.HeaderID].(string),
		DeliveryMode: amqp.Persistent, Body: body, Headers: headers}
	if err := ch.PublishWithContext(context.Background(), "", replyTo, false, false, msg); err != nil {
		t.Errorf("python responder: %v", err)
	}
	_ = d.Ack(false)
}

// Item 12 of issue 23: a Python responder's "NotFound: <text>" failure,
// without acemq-error-code, reaches a Go caller that declares NotFound as
// errNotFound itself; another class stays an opaque ResponderError.
func TestPythonStyleResponderClassTextErrorIsTheDeclaredError(t *testing.T) {
	r := &rig{t: t, url: brokerURL(t), broker: true}
	conn := r.conn()
	q := r.queue(conn, "py-responder")
	pythonResponder(t, r.url, q, func(n int) (int, string, string) {
		switch n {
		case 7:
			return 0, "NotFound", "order 7 is not here"
		case 8:
			return 0, "KeyError", "'sku'"
		}
		return n + 100, "", ""
	})
	req := requester[int, int](t, conn, q, DeclaredErrors(errNotFound))
	if got, err := req.Do(r.ctx(), 1); err != nil || got != 101 {
		t.Errorf("answer: %d, %v; want 101", got, err)
	}
	if _, err := req.Do(r.ctx(), 7); err != errNotFound || !errors.Is(err, errNotFound) {
		t.Errorf("NotFound: err = %v, want errNotFound itself", err)
	}
	_, err := req.Do(r.ctx(), 8)
	if !errors.Is(err, ErrResponderFailed) || errors.Is(err, errNotFound) || err.Error() != "acemq: the responder failed: KeyError: 'sku'" {
		t.Errorf("KeyError: err = %v, want the family's ResponderError", err)
	}
}
