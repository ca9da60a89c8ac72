package crypto

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
	"io"
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/cpumeter"
)

// passCodec is an inner codec that costs nothing: Encode returns the bytes
// it is given and Decode hands the plaintext over without a copy, so a
// benchmark of Wrap(passCodec{}) measures the encryption layer alone.
type passCodec struct{ rawCodec }

func (passCodec) Encode(p any) ([]byte, error) { return p.([]byte), nil }
func (passCodec) Decode(b []byte, dst any) error {
	*dst.(*[]byte) = b
	return nil
}

// rawGCM is the baseline: stdlib AES-GCM with the same 32-byte key and a
// fresh 12-byte nonce from crypto/rand, written as header || nonce ||
// ciphertext || tag in one allocation, with header as associated data. With
// no header it is bare AES-GCM; with the frame's 10-byte header it is the
// family frame written by hand, so the difference to Wrap is the library's
// own overhead (parsing, key lookup, the inner codec call).
type rawGCM struct {
	aead   cipher.AEAD
	header []byte
}

func newRawGCM(b testing.TB, secret, header []byte) rawGCM {
	block, err := aes.NewCipher(secret)
	if err != nil {
		b.Fatal(err)
	}
	return rawGCM{aead: must(cipher.NewGCM(block))(b), header: header}
}

func (r rawGCM) Encode(p any) ([]byte, error) {
	plain, h := p.([]byte), len(r.header)
	out := make([]byte, h+nonceSize, h+nonceSize+len(plain)+tagSize)
	copy(out, r.header)
	if _, err := io.ReadFull(rand.Reader, out[h:]); err != nil {
		return nil, err
	}
	return r.aead.Seal(out, out[h:], plain, r.header), nil
}

func (r rawGCM) Decode(body []byte, dst any) error {
	h := len(r.header)
	plain, err := r.aead.Open(nil, body[h:h+nonceSize], body[h+nonceSize:], r.header)
	*dst.(*[]byte) = plain
	return err
}

func must[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

type sealer interface {
	Encode(any) ([]byte, error)
	Decode([]byte, any) error
}

// BenchmarkSeal compares Wrap (over a free inner codec) with raw AES-GCM,
// bare and with the frame's header as associated data, at a record-sized and
// a 1 KiB payload. Compare with benchstat -col /codec -row /op,/size.
func BenchmarkSeal(b *testing.B) {
	header := appendHeader(nil, firstKey().ID)
	for _, size := range []int{128, 1024} {
		plain := bytes.Repeat([]byte("x"), size)
		for _, c := range []struct {
			name  string
			codec sealer
		}{
			{"raw-aes-gcm", newRawGCM(b, firstKey().Secret, nil)},
			{"raw-aes-gcm+header", newRawGCM(b, firstKey().Secret, header)},
			{"wrap", Wrap(passCodec{}, mustRing(b, firstKey()))},
		} {
			benchSeal(b, fmt.Sprintf("size=%d/codec=%s", size, c.name), c.codec, plain)
		}
	}
}

// TestRawGCMWithTheHeaderWritesTheFamilyFrame proves the hand-written
// baseline is the same format Wrap writes: each opens the other's bodies.
func TestRawGCMWithTheHeaderWritesTheFamilyFrame(t *testing.T) {
	raw := newRawGCM(t, firstKey().Secret, appendHeader(nil, firstKey().ID))
	wrap := Wrap(passCodec{}, mustRing(t, firstKey()))
	for _, pair := range [][2]sealer{{raw, wrap}, {wrap, raw}} {
		body := must(pair[0].Encode([]byte("payload")))(t)
		var out []byte
		if err := pair[1].Decode(body, &out); err != nil || string(out) != "payload" {
			t.Fatalf("%T -> %T: %q, %v", pair[0], pair[1], out, err)
		}
	}
}

func benchSeal(b *testing.B, name string, c sealer, plain []byte) {
	body := must(c.Encode(plain))(b)
	b.Run("op=encode/"+name, func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(plain)))
		cpu := cpumeter.Start()
		for b.Loop() {
			if _, err := c.Encode(plain); err != nil {
				b.Fatal(err)
			}
		}
		cpu.Report(b)
	})
	b.Run("op=decode/"+name, func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(plain)))
		cpu := cpumeter.Start()
		for b.Loop() {
			var out []byte
			if err := c.Decode(body, &out); err != nil {
				b.Fatal(err)
			}
		}
		cpu.Report(b)
	})
}
