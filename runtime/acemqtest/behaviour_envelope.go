package acemqtest

import (
	"encoding/json"
	"reflect"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

var envelopeCases = []behaviourCase{
	{"envelope/defaults-and-headers-travel-on-the-wire", envelopeOnTheWire},
	{"envelope/typed-message-round-trips", typedRoundTrip},
}

const testOrigin = "acemqtest-origin"

func envelopeOnTheWire(k *bkit) {
	k.conn = k.open(acemq.WithOrigin(testOrigin))
	q := k.queue()
	before := time.Now().Add(-time.Millisecond)
	res := k.send(q, order{ID: "wire", Qty: 2}, acemq.Header("tenant", "t1"), acemq.Header("n", 7))
	d := k.pull(q)
	if d.MessageID != res.MessageID || d.ContentType != "application/json" || d.RoutingKey != q || string(d.Body) != `{"id":"wire","qty":2}` {
		k.t.Errorf("delivery = %+v, want message-id %s, application/json, key %s and the JSON body", d, res.MessageID, q)
	}
	want := map[string]any{
		semconv.HeaderID: res.MessageID, semconv.HeaderType: q, semconv.HeaderVersion: int64(1),
		semconv.HeaderCorrelation: res.MessageID, semconv.HeaderAttempt: int64(1), semconv.HeaderOrigin: testOrigin,
		"tenant": "t1", "n": int32(7),
	}
	for name, v := range want {
		if got := d.Headers[name]; !reflect.DeepEqual(got, v) {
			k.t.Errorf("header %s = %#v (%T), want %#v (%T)", name, got, got, v, v)
		}
	}
	checkFirstSeen(k, d.Headers[semconv.HeaderFirstSeen], before)
	for _, absent := range []string{semconv.HeaderError, semconv.HeaderCausation, semconv.HeaderClaim} {
		if v, ok := d.Headers[absent]; ok {
			k.t.Errorf("header %s = %#v on a new message, want it absent", absent, v)
		}
	}
}

// checkFirstSeen: epoch milliseconds as an int64, between before and now.
func checkFirstSeen(k *bkit, v any, before time.Time) {
	k.t.Helper()
	ms, ok := v.(int64)
	if !ok {
		k.t.Fatalf("header %s = %#v (%T), want epoch milliseconds as int64", semconv.HeaderFirstSeen, v, v)
	}
	if at := time.UnixMilli(ms); at.Before(before) || at.After(time.Now()) {
		k.t.Errorf("first-seen %v, want between %v and now", at, before)
	}
}

func typedRoundTrip(k *bkit) {
	q := k.queue()
	rec := newRecorder(nil)
	k.consume(nil, q, rec.handle)
	sent := order{ID: "typed", Qty: 3, Tags: []string{"a", "b"}}
	res := k.send(q, sent, acemq.Header("tenant", "t1"))
	m := rec.expect(k, "typed")
	body, _ := json.Marshal(sent)
	if !reflect.DeepEqual(m.Payload, sent) || string(m.Body) != string(body) || m.ContentType != "application/json" ||
		m.RoutingKey != q || m.Redelivered {
		k.t.Errorf("message = %+v, want %+v as JSON on key %s, not redelivered", m, sent, q)
	}
	env := m.Envelope
	if env.ID != res.MessageID || env.Type != q || env.Attempt != 1 || env.Version != 1 ||
		env.CorrelationID != res.MessageID || env.Error != "" || env.Headers["tenant"] != "t1" {
		k.t.Errorf("envelope = %+v, want id %s, type %s, attempt 1, tenant t1", env, res.MessageID, q)
	}
	if !res.Confirmed || !res.Routed {
		k.t.Errorf("result = %+v, want confirmed and routed", res)
	}
}
