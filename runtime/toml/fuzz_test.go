package toml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// FuzzDecode feeds arbitrary bodies to the decoder: it must never panic and
// every failure must be fatal.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{"orderId = \"A-1\"\nlines = [\"a\"]\n", "a = [", "[[t]]\nx=1", "a.b.c = 1", "x = 1979-05-27T07:32:00Z", "country = NO", "a = {b = 1}"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var o order
		if err := (Codec{}).Decode(body, &o); err != nil && !acemq.IsFatal(err) {
			t.Fatalf("non-fatal error %v", err)
		}
		var m map[string]any
		if err := (Codec{}).Decode(body, &m); err != nil && !acemq.IsFatal(err) {
			t.Fatalf("non-fatal error %v", err)
		}
	})
}
