package toml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/codecbound"
	"github.com/acemq/acemq-gen/runtime/internal/membound"
)

// allocPerByte bounds what decoding may allocate per body byte (beyond
// membound.Slack): the parser, the table and its trip through JSON.
const allocPerByte = 512

// FuzzDecode feeds arbitrary bodies to the decoder: it must never panic,
// every failure must be fatal, and what it allocates must stay linear in the
// body's size (no nesting bomb gets past the limits).
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{"orderId = \"A-1\"\nlines = [\"a\"]\n", "a = [", "[[t]]\nx=1", "a.b.c = 1", "x = 1979-05-27T07:32:00Z", "country = NO", "a = {b = 1}", "a = [[{b = [1]}]]", "[a.'b.c'.\"d\"]\nx = '''[[[''' # [[", "k = \"\"\"\n{{{\"\"\"\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		membound.Check(t, len(body), allocPerByte, func() {
			codecbound.FatalOnly(t, Codec{}, body, new(order), new(map[string]any))
		})
	})
}
