package acemq

import (
	"errors"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
	"github.com/acemq/acemq-gen/runtime/internal/membound"
)

func TestDecodeLimitsResolveOverTheProcessDefaults(t *testing.T) {
	if got := (DecodeLimits{}).Resolve(); got != DefaultDecodeLimits() {
		t.Fatalf("zero limits resolve to %+v, want the defaults", got)
	}
	SetDecodeLimits(DecodeLimits{MaxDepth: 7})
	t.Cleanup(func() { SetDecodeLimits(DecodeLimits{}) })
	got := DecodeLimits{MaxElements: -1}.Resolve()
	if want := (DecodeLimits{MaxBody: DefaultMaxBody, MaxDepth: 7, MaxElements: -1}); got != want {
		t.Fatalf("resolved %+v, want %+v", got, want)
	}
	if got.TooMany(1 << 40) {
		t.Fatal("a negative limit limits nothing")
	}
}

func TestLimitErrorNamesTheFormatAndTheLimit(t *testing.T) {
	l := DefaultDecodeLimits()
	for limit, want := range map[string]string{
		decodelimit.Body:     "acemq: yaml: body larger than 67108864 bytes",
		decodelimit.Depth:    "acemq: yaml: nesting deeper than 100",
		decodelimit.Elements: "acemq: yaml: more than 1000000 elements",
	} {
		err := l.Over("yaml", limit)
		var le *LimitError
		if err.Error() != want || !IsFatal(err) || !errors.Is(err, ErrDecodeLimit) || !errors.As(err, &le) || le.Limit != limit {
			t.Errorf("Over(yaml, %s) = %v, want the fatal %q", limit, err, want)
		}
	}
}

func TestTextAndBytesRefuseABodyOverMaxBody(t *testing.T) {
	SetDecodeLimits(DecodeLimits{MaxBody: 4})
	t.Cleanup(func() { SetDecodeLimits(DecodeLimits{}) })
	var s string
	var b []byte
	for _, err := range []error{StringCodec{}.Decode([]byte("12345"), &s), BytesCodec{}.Decode([]byte("12345"), &b)} {
		if !errors.Is(err, ErrDecodeLimit) || !IsFatal(err) || !strings.Contains(err.Error(), "body larger than 4 bytes") {
			t.Errorf("a 5-byte body: %v", err)
		}
	}
	if err := (StringCodec{}).Decode([]byte("1234"), &s); err != nil || s != "1234" {
		t.Fatalf("a 4-byte body: %v", err)
	}
}

// FuzzJSONDecode feeds arbitrary bodies to JSONCodec for a record with
// required fields and for any: no panic, every failure fatal, and no more
// allocation than a small multiple of the body.
func FuzzJSONDecode(f *testing.F) {
	for _, s := range []string{placedBody, `null`, `{}`, `[[[[[[`, `{"orderId":"a","orderId":"b"}`, `{"lines":[{}]}`, `"\u0000"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		membound.Check(t, len(body), 64, func() {
			var p placed
			if err := (JSONCodec{}).Decode(body, &p); err != nil && !IsFatal(err) {
				t.Fatalf("non-fatal error %v", err)
			}
			var v any
			if err := (JSONCodec{}).Decode(body, &v); err != nil && !IsFatal(err) {
				t.Fatalf("non-fatal error %v", err)
			}
		})
	})
}
