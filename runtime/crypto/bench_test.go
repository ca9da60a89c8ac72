package crypto

import (
	"bytes"
	"testing"
)

func BenchmarkEncode1KiB(b *testing.B) {
	c := Wrap(rawCodec{}, mustRing(b, firstKey()))
	payload := bytes.Repeat([]byte("x"), 1024)
	b.SetBytes(int64(len(payload)))
	for b.Loop() {
		if _, err := c.Encode(payload); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecode1KiB(b *testing.B) {
	c := Wrap(rawCodec{}, mustRing(b, firstKey()))
	body, _ := c.Encode(bytes.Repeat([]byte("x"), 1024))
	b.SetBytes(1024)
	for b.Loop() {
		var out []byte
		if err := c.Decode(body, &out); err != nil {
			b.Fatal(err)
		}
	}
}
