package patterns

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
	"github.com/acemq/acemq-gen/runtime/avro"
	"github.com/acemq/acemq-gen/runtime/crypto"
	"github.com/acemq/acemq-gen/runtime/toml"
	"github.com/acemq/acemq-gen/runtime/xml"
	"github.com/acemq/acemq-gen/runtime/yaml"
)

// wireRecord is both the request and the response of the codec matrix, so
// that one Avro schema reads both.
type wireRecord struct {
	Total int64  `json:"total" avro:"total"`
	Note  string `json:"note" avro:"note"`
}

const wireRecordSchema = `{"type":"record","name":"WireRecord","fields":[{"name":"total","type":"long"},{"name":"note","type":"string"}]}`

// failing answers a wireRecord whose Note is "missing" with errNotFound and
// one whose Note is "broken" with an undeclared error.
func failing(_ context.Context, m acemq.Message[wireRecord]) (wireRecord, error) {
	switch m.Payload.Note {
	case "missing":
		return wireRecord{}, errNotFound
	case "broken":
		return wireRecord{}, errors.New("the database is down")
	}
	return m.Payload, nil
}

// replyCodecs are the codecs a responder may reply with, and the failure
// body each is expected to write ("" where it is not byte-stable).
func replyCodecs(t *testing.T) map[string]struct {
	codec acemq.Codec
	body  string
} {
	t.Helper()
	fixed, err := avro.Of(wireRecordSchema)
	if err != nil {
		t.Fatal(err)
	}
	registered, err := avro.Registered(avro.NewMemoryRegistry(), "wire-record", wireRecordSchema)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := crypto.NewKey("failure-replies")
	ring, _ := crypto.NewKeyring(key)
	return map[string]struct {
		codec acemq.Codec
		body  string
	}{
		"json":            {acemq.JSONCodec{}, "null"},
		"yaml":            {yaml.Codec{}, "null\n"},
		"toml":            {toml.Codec{}, "total = 0\nnote = \"\"\n"},
		"xml":             {xml.Codec{}, "<wireRecord><total>0</total><note></note></wireRecord>"},
		"avro":            {fixed, "\x00\x00"},
		"avro-registered": {registered, ""},
		"encrypted json":  {crypto.Wrap(acemq.JSONCodec{}, ring), ""},
		"encrypted toml":  {crypto.Wrap(toml.Codec{}, ring), ""},
	}
}

// rawAsk publishes payload to queue as a family requester does, encoded with
// codec, naming replies (a queue) for the reply, and returns the reply.
func rawAsk(t *testing.T, r *rig, conn *acemq.Conn, codec acemq.Codec, queue, replies string, payload any) driver.Delivery {
	t.Helper()
	env, _ := acemq.NewEnvelope(queue, acemq.CorrelationID("raw-"+acemq.NewUUID()))
	env.Headers[HeaderReplyTo] = replies
	body, err := codec.Encode(payload)
	if err != nil {
		t.Fatal(err)
	}
	out := driver.Outbound{MessageID: env.ID, ContentType: codec.ContentType(), Body: body, Headers: env.ToWire()}
	if _, err := conn.PublishRaw(r.ctx(), "", queue, out); err != nil {
		t.Fatal(err)
	}
	var d driver.Delivery
	eventually(t, "the reply arrives", func() bool {
		got, ok, err := conn.Pull(r.ctx(), replies)
		d = got
		return ok && err == nil
	})
	if corr, _ := headerString(d.Headers, semconv.HeaderCorrelation); corr != env.CorrelationID {
		t.Errorf("reply correlation %q, want %q", corr, env.CorrelationID)
	}
	return d
}

// Item 11 of issue 23: a failure reply's body is one the RPC's codec
// decodes, labelled with the codec's content type (JSON's and YAML's null, as
// the family's Python responder sends; elsewhere the response's zero value),
// and it keeps the acemq-error and acemq-error-code headers.
func TestFailureReplyBodyIsTheRPCCodecsNullWithItsContentType(t *testing.T) {
	for name, c := range replyCodecs(t) {
		t.Run(name, func(t *testing.T) {
			r := &rig{t: t, url: "memory://patterns-" + acemq.NewUUID()}
			conn := r.conn()
			q, replies := r.queue(conn, "failure-body"), r.queue(conn, "failure-body-replies")
			serve(t, conn, q, failing, acemq.ConsumeWith(c.codec))
			for note, want := range map[string][2]string{"missing": {"NotFound", "NotFound"}, "broken": {"the responder failed", ""}} {
				d := rawAsk(t, r, conn, c.codec, q, replies, wireRecord{Total: 1, Note: note})
				checkFailureReply(t, c.codec, c.body, d, want[0], want[1])
			}
		})
	}
}

// checkFailureReply checks one failure reply: content type, body, headers.
func checkFailureReply(t *testing.T, codec acemq.Codec, body string, d driver.Delivery, errorPrefix, code string) {
	t.Helper()
	if d.ContentType != codec.ContentType() {
		t.Errorf("content type %q, want the RPC codec's %q", d.ContentType, codec.ContentType())
	}
	if body != "" && string(d.Body) != body {
		t.Errorf("body %q, want %q", d.Body, body)
	}
	var decoded any = new(wireRecord)
	if body == "null" || body == "null\n" {
		decoded = new(any)
	}
	if err := codec.Decode(d.Body, decoded); err != nil {
		t.Errorf("the RPC's codec cannot read the failure body %q: %v", d.Body, err)
	}
	text, _ := headerString(d.Headers, HeaderError)
	got, _ := headerString(d.Headers, HeaderErrorCode)
	if len(text) < len(errorPrefix) || text[:len(errorPrefix)] != errorPrefix || got != code {
		t.Errorf("acemq-error %q, acemq-error-code %q; want %q…, %q", text, got, errorPrefix, code)
	}
}

// Item 11 of issue 23: Go requesters keep reading the failure replies of
// earlier Go responders (an empty application/octet-stream body) beside the
// new ones (a body in the RPC's codec).
func TestRequesterReadsFailureRepliesOfBothShapes(t *testing.T) {
	shapes := map[string]struct {
		contentType string
		body        []byte
	}{
		"empty octet-stream": {"application/octet-stream", []byte{}},
		"json null":          {"application/json", []byte("null")},
	}
	for name, shape := range shapes {
		t.Run(name, func(t *testing.T) {
			r := &rig{t: t, url: "memory://patterns-" + acemq.NewUUID()}
			conn := r.conn()
			declared, generic := r.queue(conn, "shape-declared"), r.queue(conn, "shape-generic")
			failWith := func(headers map[string]any) func([]byte) (string, []byte, map[string]any) {
				return func([]byte) (string, []byte, map[string]any) { return shape.contentType, shape.body, headers }
			}
			rawResponder(t, conn, declared, failWith(map[string]any{HeaderError: "NotFound", HeaderErrorCode: "NotFound"}))
			rawResponder(t, conn, generic, failWith(map[string]any{HeaderError: genericFailure("m-1")}))
			if _, err := requester[wireRecord, wireRecord](t, conn, declared, DeclaredErrors(errNotFound)).Do(r.ctx(), wireRecord{}); err != errNotFound {
				t.Errorf("declared: err = %v, want errNotFound itself", err)
			}
			_, err := requester[wireRecord, wireRecord](t, conn, generic).Do(r.ctx(), wireRecord{})
			if !errors.Is(err, ErrResponderFailed) || err.Error() != "acemq: the responder failed (message m-1)" {
				t.Errorf("generic: err = %v, want the generic failure", err)
			}
		})
	}
}

// Item 12 of issue 23: an acemq-error without a code that names a declared
// error as its class ("NotFound" or "NotFound: <text>", as the family's
// Python responder writes) is that error; any other class is not.
func TestFailureNamingADeclaredErrorAsItsClassIsThatError(t *testing.T) {
	cases := map[string]error{
		"NotFound: order 7 is not here": errNotFound,
		"NotFound: ":                    errNotFound,
		"NotFound":                      errNotFound,
		"NotFoundError: order 7":        nil,
		"KeyError: NotFound":            nil,
		"notfound: order 7":             nil,
	}
	r := &rig{t: t, url: "memory://patterns-" + acemq.NewUUID()}
	conn := r.conn()
	for text, want := range cases {
		q := r.queue(conn, "class-text")
		familyResponder(t, conn, q, func(int) (int, string) { return 0, text })
		_, err := requester[int, int](t, conn, q, DeclaredErrors(errNotFound)).Do(r.ctx(), 1)
		if want != nil && err != want {
			t.Errorf("%q: err = %v, want errNotFound itself", text, err)
		}
		if want == nil && (errors.Is(err, errNotFound) || err.Error() != fmt.Sprintf("acemq: the responder failed: %s", text)) {
			t.Errorf("%q: err = %v, want a ResponderError with the text", text, err)
		}
	}
}
