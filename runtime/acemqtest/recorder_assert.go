package acemqtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// maxShownBody is how much of a body a failure message shows.
const maxShownBody = 160

// Published decodes every message r recorded as published successfully with
// routingKey, in order, as T. Each body is decoded with the codec for its
// content type: JSON (application/json, +json, or none), text (text/*) or
// bytes (application/octet-stream); use PublishedWith for any other codec,
// such as Avro. The envelope is read as a consumer reads it: from the wire
// headers (acemq.EnvelopeFromWire), then the AMQP reply-to and
// correlation-id properties where the headers lack them. A body that does
// not decode fails the test at once. Failed publishes are left out (they are
// in r.Published()).
func Published[T any](t testing.TB, r *Recorder, routingKey string) []acemq.Message[T] {
	t.Helper()
	return decodeRecords[T](t, r.routedTo(routingKey), defaultCodec)
}

// PublishedWith is Published decoding every body with codec (through
// DecodeAs when codec is an acemq.ContentTypeDecoder). A message whose
// content type codec does not claim fails the test at once.
func PublishedWith[T any](t testing.TB, r *Recorder, routingKey string, codec acemq.Codec) []acemq.Message[T] {
	t.Helper()
	return decodeRecords[T](t, r.routedTo(routingKey), fixedCodec(codec))
}

// ExpectPublished is Published that fails the test at once unless exactly n
// messages were published successfully with routingKey; the failure lists
// every recorded publish.
func ExpectPublished[T any](t testing.TB, r *Recorder, routingKey string, n int) []acemq.Message[T] {
	t.Helper()
	return expectRecords[T](t, r, routingKey, n, defaultCodec)
}

// ExpectPublishedWith is ExpectPublished decoding with codec, as
// PublishedWith does.
func ExpectPublishedWith[T any](t testing.TB, r *Recorder, routingKey string, n int, codec acemq.Codec) []acemq.Message[T] {
	t.Helper()
	return expectRecords[T](t, r, routingKey, n, fixedCodec(codec))
}

// ExpectNothingPublished fails the test (with Errorf, so it goes on) when r
// recorded any publish, failed ones included, listing them.
func ExpectNothingPublished(t testing.TB, r *Recorder) {
	t.Helper()
	if all := r.Published(); len(all) > 0 {
		t.Errorf("acemqtest: want nothing published, got %s:\n%s", messages(len(all)), describeRecords(all))
	}
}

// expectRecords checks the count, then decodes.
func expectRecords[T any](t testing.TB, r *Recorder, key string, n int, pick codecPicker) []acemq.Message[T] {
	t.Helper()
	recs := r.routedTo(key)
	if len(recs) != n {
		t.Fatalf("acemqtest: want %s published with routing key %q, got %d; %s",
			messages(n), key, len(recs), publishedInstead(r.Published()))
		return nil
	}
	return decodeRecords[T](t, recs, pick)
}

// publishedInstead lists every recorded publish for a failure message.
func publishedInstead(all []Record) string {
	if len(all) == 0 {
		return "nothing was published"
	}
	return "published:\n" + describeRecords(all)
}

// codecPicker returns the codec that reads contentType, or ok false.
type codecPicker func(contentType string) (acemq.Codec, bool)

// defaultCodec picks JSON, text or bytes by content type.
func defaultCodec(contentType string) (acemq.Codec, bool) {
	ct := strings.ToLower(strings.TrimSpace(contentType))
	for _, c := range []acemq.Codec{acemq.JSONCodec{}, acemq.StringCodec{}} {
		if c.CanDecode(ct) {
			return c, true
		}
	}
	if strings.HasPrefix(ct, "application/octet-stream") {
		return acemq.BytesCodec{}, true
	}
	return nil, false
}

// fixedCodec picks codec for every content type it claims.
func fixedCodec(codec acemq.Codec) codecPicker {
	return func(contentType string) (acemq.Codec, bool) {
		return codec, codec != nil && codec.CanDecode(contentType)
	}
}

// decodeRecords decodes recs as T, failing the test at the first that does not.
func decodeRecords[T any](t testing.TB, recs []Record, pick codecPicker) []acemq.Message[T] {
	t.Helper()
	out := make([]acemq.Message[T], 0, len(recs))
	for i, rec := range recs {
		m, err := decodeRecord[T](rec, pick)
		if err != nil {
			t.Fatalf("acemqtest: message %d published with routing key %q: %v", i+1, rec.RoutingKey, err)
			return nil
		}
		out = append(out, m)
	}
	return out
}

// decodeRecord turns one record into a typed message.
func decodeRecord[T any](rec Record, pick codecPicker) (acemq.Message[T], error) {
	out := rec.Outbound
	m := acemq.Message[T]{Body: out.Body, ContentType: out.ContentType, RoutingKey: rec.RoutingKey}
	codec, ok := pick(out.ContentType)
	if !ok {
		return m, fmt.Errorf("no codec reads its content type %q (use PublishedWith or ExpectPublishedWith with the codec that wrote it)", out.ContentType)
	}
	if err := decodeBody(codec, out, &m.Payload); err != nil {
		return m, fmt.Errorf("cannot decode body %s as %T: %w", showBody(out.Body), m.Payload, err)
	}
	m.Envelope = envelopeOf(rec)
	return m, nil
}

// envelopeOf reads the envelope as a consumer would: from the wire headers,
// then the reply-to and correlation-id properties where the headers lack them.
func envelopeOf(rec Record) acemq.Envelope {
	out := rec.Outbound
	env := acemq.EnvelopeFromWire(out.Headers, rec.RoutingKey, out.MessageID)
	if env.ReplyTo == "" {
		env.ReplyTo = out.ReplyTo
	}
	if out.CorrelationID != "" && !hasString(out.Headers, semconv.HeaderCorrelation) {
		env.CorrelationID = out.CorrelationID
	}
	return env
}

// hasString reports whether headers carry a non-empty string (or bytes) named name.
func hasString(headers map[string]any, name string) bool {
	switch v := headers[name].(type) {
	case string:
		return v != ""
	case []byte:
		return len(v) > 0
	}
	return false
}

// decodeBody decodes with DecodeAs when codec picks by content type.
func decodeBody(codec acemq.Codec, out driver.Outbound, dst any) error {
	if d, ok := codec.(acemq.ContentTypeDecoder); ok {
		return d.DecodeAs(out.ContentType, out.Body, dst)
	}
	return codec.Decode(out.Body, dst)
}

// describeRecords renders records one a line, numbered from 1.
func describeRecords(recs []Record) string {
	lines := make([]string, len(recs))
	for i, rec := range recs {
		lines[i] = fmt.Sprintf("  #%d exchange %q routing key %q, %s%s, body %s", i+1, rec.Exchange, rec.RoutingKey,
			contentTypeOf(rec.Outbound), appHeaders(rec.Outbound.Headers), showBody(rec.Outbound.Body))
		if rec.Err != nil {
			lines[i] += fmt.Sprintf(" (failed: %v)", rec.Err)
		}
	}
	return strings.Join(lines, "\n")
}

// contentTypeOf names a content type for a failure message.
func contentTypeOf(out driver.Outbound) string {
	if out.ContentType == "" {
		return "no content type"
	}
	return out.ContentType
}

// appHeaders renders the application headers (not the family's acemq-*
// ones), sorted by name, or "" when there are none.
func appHeaders(headers map[string]any) string {
	var shown []string
	for name, v := range headers {
		if !strings.HasPrefix(strings.ToLower(name), acemq.ReservedHeaderPrefix) {
			shown = append(shown, fmt.Sprintf("%s=%v", name, v))
		}
	}
	if len(shown) == 0 {
		return ""
	}
	slices.Sort(shown)
	return ", headers " + strings.Join(shown, " ")
}

// showBody renders a body as text when it is printable UTF-8 (quoted when it
// has control characters), else by size; long bodies are cut.
func showBody(body []byte) string {
	if !utf8.Valid(body) {
		return fmt.Sprintf("of %d binary bytes", len(body))
	}
	text, cut := string(body), ""
	if len(body) > maxShownBody {
		text = strings.ToValidUTF8(text[:maxShownBody], "")
		cut = fmt.Sprintf("… (%d bytes)", len(body))
	}
	if strings.ContainsFunc(text, unicode.IsControl) || text == "" {
		return fmt.Sprintf("%q%s", text, cut)
	}
	return text + cut
}

// messages renders "1 message" or "n messages".
func messages(n int) string {
	if n == 1 {
		return "1 message"
	}
	return fmt.Sprintf("%d messages", n)
}
