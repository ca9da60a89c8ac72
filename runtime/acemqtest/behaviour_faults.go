package acemqtest

import (
	"context"
	"errors"
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

var faultCases = []behaviourCase{
	{"fault/undecodable-body-is-parked-once-never-retried", undecodableParked},
	{"fault/unclaimed-content-type-is-parked", unclaimedContentType},
	{"fault/handler-panic-dead-letters-and-the-consumer-survives", handlerPanic},
	{"fault/consume-interceptor-refusal-dead-letters-with-the-reason", consumeInterceptorRefusal},
	{"fault/a-message-lacking-a-required-header-is-dead-lettered", requiredHeaderMissing},
}

// publishRaw puts body with contentType on queue, bypassing the codec.
func (k *bkit) publishRaw(queue, id, contentType, body string) {
	k.t.Helper()
	out := driver.Outbound{Body: []byte(body), ContentType: contentType, MessageID: id, Persistent: true}
	if _, err := k.conn.PublishRaw(k.ctx, "", queue, out); err != nil {
		k.t.Fatalf("PublishRaw(%s): %v", id, err)
	}
}

// expectParkedUndecoded pulls the parked message and checks it was parked
// for its body, naming want, and that nothing else was set aside.
func expectParkedUndecoded(k *bkit, q, id, want string) {
	k.t.Helper()
	d, env := k.pullEnvelope(acemq.ParkedQueue(q))
	if d.MessageID != id || !strings.HasPrefix(env.Error, "could not be decoded: ") || !strings.Contains(env.Error, want) {
		k.t.Errorf("parked %s with reason %q, want %s parked as could not be decoded: … %s", d.MessageID, env.Error, id, want)
	}
}

// expectNothingElse: after a sentinel is handled, nothing else was handled
// and the parked and dead-letter queues are empty.
func expectNothingElse(k *bkit, q string, rec *recorder, handled int) {
	k.t.Helper()
	k.send(q, order{ID: "sentinel"})
	rec.expect(k, "sentinel")
	if n := rec.handled(); n != handled {
		k.t.Errorf("handled %d messages, want %d", n, handled)
	}
	for _, side := range []string{acemq.ParkedQueue(q), acemq.DeadLetterQueue(q)} {
		if n := k.count(side); n != 0 {
			k.t.Errorf("%s holds %d more messages, want 0", side, n)
		}
	}
}

func undecodableParked(k *bkit) {
	q := k.queue()
	rec := newRecorder(nil)
	k.consume(nil, q, rec.handle)
	k.publishRaw(q, "garbled", "application/json", `{"id": not json`)
	expectParkedUndecoded(k, q, "garbled", "")
	expectNothingElse(k, q, rec, 1)
}

func unclaimedContentType(k *bkit) {
	q := k.queue()
	rec := newRecorder(nil)
	k.consume(nil, q, rec.handle)
	k.publishRaw(q, "foreign", "application/x-protobuf", `{"id":"foreign"}`)
	expectParkedUndecoded(k, q, "foreign", "application/x-protobuf")
	expectNothingElse(k, q, rec, 1)
}

func handlerPanic(k *bkit) {
	q := k.queue()
	rec := newRecorder(func(_ context.Context, m acemq.Message[order]) acemq.Ack {
		if m.Payload.ID == "bomb" {
			panic("kaboom")
		}
		return acemq.Accept()
	})
	k.consume(nil, q, rec.handle)
	k.send(q, order{ID: "bomb"})
	d, env := k.pullEnvelope(acemq.DeadLetterQueue(q))
	if !strings.Contains(env.Error, "panicked") || !strings.Contains(env.Error, "kaboom") {
		k.t.Errorf("dead letter %s reason %q, want the panic named", d.MessageID, env.Error)
	}
	k.send(q, order{ID: "after"})
	rec.expect(k, "bomb")
	rec.expect(k, "after")
}

// expectOnlyGoodHandled sends the order good with the header tenant t1 and
// expects it handled, the only message rec handled (the one why says).
func expectOnlyGoodHandled(k *bkit, q string, rec *recorder, good, why string) {
	k.t.Helper()
	k.send(q, order{ID: good}, acemq.Header("tenant", "t1"))
	rec.expect(k, good)
	if n := rec.handled(); n != 1 {
		k.t.Errorf("handled %d messages, want only the one %s", n, why)
	}
}

func consumeInterceptorRefusal(k *bkit) {
	conn := k.open(acemq.WithConsumeInterceptor(func(_ context.Context, c *acemq.ConsumeContext) error {
		if c.Envelope.Headers["tenant"] == nil {
			return errors.New("no tenant")
		}
		return nil
	}))
	q := k.queue()
	rec := newRecorder(nil)
	k.consume(conn, q, rec.handle)
	k.send(q, order{ID: "anonymous"})
	expectSetAside(k, acemq.DeadLetterQueue(q), "anonymous", "an interceptor refused it: no tenant")
	expectOnlyGoodHandled(k, q, rec, "known", "the interceptor let through")
}

func requiredHeaderMissing(k *bkit) {
	q := k.queue()
	rec := newRecorder(nil)
	k.consume(nil, q, rec.handle, consumeHeaderRules(acemq.HeaderRule{Name: "tenant", Required: true}))
	k.send(q, order{ID: "anonymous"})
	expectSetAside(k, acemq.DeadLetterQueue(q), "anonymous", `the message lacks the required header "tenant"`)
	expectOnlyGoodHandled(k, q, rec, "known", "with the header")
}
