package codecvectors

import (
	"reflect"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// ExpectRegistered fails t unless importing the codec's package registered
// a C under name with acemq's codec registry.
func ExpectRegistered[C acemq.Codec](t *testing.T, name string) {
	t.Helper()
	c, err := acemq.CodecByName(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(C); !ok {
		t.Fatalf("CodecByName(%q) = %T", name, c)
	}
}

// RoundTrip encodes in with c, decodes the body into a new T and fails t
// unless that equals in; it returns the body for further checks.
func RoundTrip[T any](t *testing.T, c acemq.Codec, in T) []byte {
	t.Helper()
	b, err := c.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := c.Decode(b, &out); err != nil {
		t.Fatalf("%v in\n%s", err, b)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("round trip gave %+v, want %+v\n%s", out, in, b)
	}
	return b
}

// ExpectClaims fails t for each content type of want whose CanDecode answer
// from c is not the one want gives.
func ExpectClaims(t *testing.T, c acemq.Codec, want map[string]bool) {
	t.Helper()
	for ct, claimed := range want {
		if got := c.CanDecode(ct); got != claimed {
			t.Errorf("CanDecode(%q) = %v, want %v", ct, got, claimed)
		}
	}
}

// ExpectRefused decodes each body of want into a new T with c and fails t
// unless the error is fatal and contains the text want gives it.
func ExpectRefused[T any](t *testing.T, c acemq.Codec, want map[string]string) {
	t.Helper()
	for body, text := range want {
		var v T
		err := c.Decode([]byte(body), &v)
		if !acemq.IsFatal(err) || !strings.Contains(err.Error(), text) {
			t.Errorf("Decode(%q) = %v, want a fatal error containing %q", body, err, text)
		}
	}
}
