package yaml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/codecbound"
	"github.com/acemq/acemq-gen/runtime/internal/membound"
)

// allocPerByte bounds what decoding may allocate per body byte (beyond
// membound.Slack): goccy/go-yaml's tokens and nodes cost about 1.2 KB per
// value, and a value takes at least two bytes.
const allocPerByte = 1024

// FuzzDecode feeds arbitrary bodies to the decoder: it must never panic,
// every failure must be fatal, and what it allocates must stay linear in the
// body's size (no nesting or alias bomb gets past the limits).
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{"orderId: A-1\nlines:\n- a\n", "a: [", "&a [*a, *a]", "? a\n: b", "- - -", "country: NO", "{a: 1}", "!!binary x",
		"a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n", "a: |\n  [[[\n'b': [\"]\", [1]]\n", "a: 1\n---\nb: 2\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		membound.Check(t, len(body), allocPerByte, func() {
			codecbound.FatalOnly(t, Codec{}, body, new(order), new(map[string]any))
		})
	})
}
