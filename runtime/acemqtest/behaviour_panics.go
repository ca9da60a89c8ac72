package acemqtest

import (
	"bytes"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

var panicCases = []behaviourCase{
	{"panic/a-panicking-codec-decode-parks-the-message-once-never-retried", panickingDecodeParked},
	{"panic/a-panicking-codec-encode-fails-the-send-and-publishes-nothing", panickingEncodeFails},
}

// bombCodec is JSON that panics with "boom" on a body or payload holding
// "bomb", counting the decodes it is asked for.
type bombCodec struct {
	acemq.JSONCodec
	decodes *atomic.Int32
}

func (c bombCodec) Encode(payload any) ([]byte, error) {
	if o, ok := payload.(order); ok && o.ID == "bomb" {
		//acemqvet:ignore interceptorpanic the kit proves a panicking codec is recovered
		panic("boom")
	}
	return c.JSONCodec.Encode(payload)
}

func (c bombCodec) Decode(body []byte, dst any) error {
	c.decodes.Add(1)
	if bytes.Contains(body, []byte("bomb")) {
		//acemqvet:ignore interceptorpanic the kit proves a panicking codec is recovered
		panic("boom")
	}
	return c.JSONCodec.Decode(body, dst)
}

func panickingDecodeParked(k *bkit) {
	q := k.queue()
	rec := newRecorder(nil)
	decodes := &atomic.Int32{}
	k.consume(nil, q, rec.handle, acemq.ConsumeWith(bombCodec{decodes: decodes}),
		acemq.RetryWith(acemq.FixedRetry(5, time.Millisecond)))
	k.send(q, order{ID: "bomb"})
	_, env := k.pullEnvelope(acemq.ParkedQueue(q))
	if want := "could not be decoded: the codec panicked: boom"; env.Error != want || env.Attempt != 1 {
		k.t.Errorf("parked at attempt %d with reason %q, want attempt 1 (never retried) and %q", env.Attempt, env.Error, want)
	}
	expectNothingElse(k, q, rec, 1)
	if n := decodes.Load(); n != 2 {
		k.t.Errorf("%d decodes, want 2 (the bomb once, the sentinel once)", n)
	}
}

func panickingEncodeFails(k *bkit) {
	q := k.queue()
	p := acemq.NewPublisher(k.conn, "", q, acemq.PublishWith[order](bombCodec{decodes: &atomic.Int32{}}))
	const want = "acemq: the application/json codec panicked: boom"
	if err := p.Send(k.ctx, order{ID: "bomb"}); err == nil || err.Error() != want {
		k.t.Errorf("Send = %v, want %q", err, want)
	}
	_, err := p.SendAll(k.ctx, []order{{ID: "first"}, {ID: "bomb"}, {ID: "last"}})
	var batch *acemq.BatchPublishFailedError
	if !errors.As(err, &batch) || batch.Failed != 1 || batch.First.Error() != want {
		k.t.Errorf("SendAll = %v, want only the bomb failed with %q", err, want)
	}
	k.eventually("the two good messages", func() bool { return k.count(q) == 2 })
	for _, id := range []string{"first", "last"} {
		if d := k.pull(q); !strings.Contains(string(d.Body), id) {
			k.t.Errorf("the queue holds %s, want %s", d.Body, id)
		}
	}
}
