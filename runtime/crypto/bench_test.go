package crypto

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
	"io"
	"testing"
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
// fresh 12-byte nonce from crypto/rand, written as nonce || ciphertext || tag
// in one allocation.
type rawGCM struct{ aead cipher.AEAD }

func newRawGCM(b *testing.B, secret []byte) rawGCM {
	block, err := aes.NewCipher(secret)
	if err != nil {
		b.Fatal(err)
	}
	return rawGCM{aead: must(cipher.NewGCM(block))(b)}
}

func (r rawGCM) Encode(p any) ([]byte, error) {
	plain := p.([]byte)
	out := make([]byte, nonceSize, nonceSize+len(plain)+tagSize)
	if _, err := io.ReadFull(rand.Reader, out); err != nil {
		return nil, err
	}
	return r.aead.Seal(out, out, plain, nil), nil
}

func (r rawGCM) Decode(body []byte, dst any) error {
	plain, err := r.aead.Open(nil, body[:nonceSize], body[nonceSize:], nil)
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

// BenchmarkSeal compares Wrap (over a free inner codec) with raw AES-GCM at
// a record-sized and a 1 KiB payload. Compare with
// benchstat -col /codec -row /op,/size.
func BenchmarkSeal(b *testing.B) {
	for _, size := range []int{128, 1024} {
		plain := bytes.Repeat([]byte("x"), size)
		for _, c := range []struct {
			name  string
			codec sealer
		}{
			{"raw-aes-gcm", newRawGCM(b, firstKey().Secret)},
			{"wrap", Wrap(passCodec{}, mustRing(b, firstKey()))},
		} {
			benchSeal(b, fmt.Sprintf("size=%d/codec=%s", size, c.name), c.codec, plain)
		}
	}
}

func benchSeal(b *testing.B, name string, c sealer, plain []byte) {
	body := must(c.Encode(plain))(b)
	b.Run("op=encode/"+name, func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(plain)))
		for b.Loop() {
			if _, err := c.Encode(plain); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("op=decode/"+name, func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(plain)))
		for b.Loop() {
			var out []byte
			if err := c.Decode(body, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
