package crypto

import (
	"bytes"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// rawCodec is an inner codec that passes []byte through, so tests see the
// exact plaintext the frame carries.
type rawCodec struct{}

func (rawCodec) ContentType() string { return "application/octet-stream" }
func (rawCodec) Encode(p any) ([]byte, error) {
	if s, ok := p.(string); ok {
		return []byte(s), nil
	}
	return p.([]byte), nil
}
func (rawCodec) Decode(b []byte, dst any) error {
	*dst.(*[]byte) = append([]byte(nil), b...)
	return nil
}
func (rawCodec) CanDecode(string) bool { return true }

var _ acemq.Codec = rawCodec{}

// seq returns n bytes counting up from start (or down, when step is -1).
func seq(start, n, step int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(start + i*step)
	}
	return b
}

func mustRing(t testing.TB, keys ...Key) *Keyring {
	t.Helper()
	kr, err := NewKeyring(keys...)
	if err != nil {
		t.Fatal(err)
	}
	return kr
}

// fixedNonce wraps with a deterministic nonce source.
func fixedNonce(c *Codec, nonce []byte) *Codec {
	c.nonces = bytes.NewReader(nonce)
	return c
}

func decrypt(t testing.TB, c *Codec, body []byte) []byte {
	t.Helper()
	var out []byte
	if err := c.Decode(body, &out); err != nil {
		t.Fatalf("Decode: %v", err)
	}
	return out
}
