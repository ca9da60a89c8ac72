package crypto

import (
	"encoding/hex"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/membound"
)

// FuzzDecodeFrame feeds arbitrary bodies to the decoder: it must never panic,
// every failure must be fatal, it must allocate no more than a small multiple
// of the body, and a body it opens must name the key it opened with.
func FuzzDecodeFrame(f *testing.F) {
	vector, _ := hex.DecodeString("ae0107323032362d3031000102030405060708090a0b2f67ba77aa632797b83b1f88ef1394bb9ff6e85641")
	for _, seed := range [][]byte{vector, {}, {0xAE}, {0xAE, 0x01}, {0xAE, 0x01, 0x00}, {0xAE, 0x02, 0x01, 'k'},
		{0xAE, 0x01, 0x07, '2', '0'}, vector[:20], []byte(`{"json":true}`)} {
		f.Add(seed)
	}
	kr := mustRing(f, firstKey())
	c := Wrap(rawCodec{}, kr)
	f.Fuzz(func(t *testing.T, body []byte) {
		var out []byte
		var err error
		membound.Check(t, len(body), 8, func() { err = c.Decode(body, &out) })
		if err != nil {
			if !acemq.IsFatal(err) {
				t.Fatalf("non-fatal error %v", err)
			}
			return
		}
		if id, err := KeyIDOf(body); err != nil || id != "2026-01" {
			t.Fatalf("opened a body whose key id is %q (%v)", id, err)
		}
	})
}
