package codecbench

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/json"
	"io"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/avro"
	"github.com/acemq/acemq-gen/runtime/crypto"
	"github.com/acemq/acemq-gen/runtime/internal/benchorder"
	"github.com/acemq/acemq-gen/runtime/internal/cpumeter"
	hamba "github.com/hamba/avro/v2"
)

// schema is the codec benchmarks' 10-field event (benchorder.Schema).
const schema = benchorder.Schema

type order = benchorder.Order

var newOrder = benchorder.New

var secret = []byte("0123456789abcdef0123456789abcdef") // AES-256, as crypto.NewKey draws

// raw is the baseline: a frozen hamba API with avro's limits, Marshal and
// Unmarshal; with aead set, the bytes are sealed as nonce || ciphertext ||
// tag under a fresh crypto/rand nonce.
type raw struct {
	api    hamba.API
	schema hamba.Schema
	aead   cipher.AEAD
	json   bool // encoding/json's Marshal and Unmarshal instead of hamba
}

func newRaw(tb testing.TB, sealed bool) raw {
	r := raw{api: hamba.Config{TagKey: "avro", MaxByteSliceSize: avro.MaxBytesSize, MaxSliceAllocSize: avro.MaxArrayItems}.Freeze()}
	r.schema = must(hamba.ParseWithCache(schema, "", &hamba.SchemaCache{}))(tb)
	if sealed {
		r.aead = must(cipher.NewGCM(must(aes.NewCipher(secret))(tb)))(tb)
	}
	return r
}

func (r raw) ContentType() string      { return "avro/binary" }
func (r raw) CanDecode(ct string) bool { return true }

func (r raw) Encode(v any) ([]byte, error) {
	body, err := r.marshal(v)
	if err != nil || r.aead == nil {
		return body, err
	}
	out := make([]byte, 12, 12+len(body)+16)
	if _, err := io.ReadFull(rand.Reader, out); err != nil {
		return nil, err
	}
	return r.aead.Seal(out, out, body, nil), nil
}

func (r raw) Decode(body []byte, v any) error {
	if r.aead != nil {
		plain, err := r.aead.Open(nil, body[:12], body[12:], nil)
		if err != nil {
			return err
		}
		body = plain
	}
	if r.json {
		return json.Unmarshal(body, v)
	}
	return r.api.Unmarshal(r.schema, body, v)
}

func (r raw) marshal(v any) ([]byte, error) {
	if r.json {
		return json.Marshal(v)
	}
	return r.api.Marshal(r.schema, v)
}

// newRawJSON is the JSON baseline: encoding/json, bare or sealed as raw is.
func newRawJSON(tb testing.TB, sealed bool) raw {
	r := newRaw(tb, sealed)
	r.json = true
	return r
}

func must[T any](v T, err error) func(testing.TB) T {
	return func(tb testing.TB) T {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return v
	}
}

type stack struct {
	name  string
	codec acemq.Codec
}

// stacks returns the codecs compared, raw hamba first so that benchstat
// takes it as the baseline of each row; JSON's own baseline,
// encoding/json, comes next.
func stacks(tb testing.TB) []stack {
	reg := avro.NewMemoryRegistry()
	return []stack{
		{"raw-hamba", newRaw(tb, false)},
		{"raw-encoding-json", newRawJSON(tb, false)},
		{"json", acemq.JSONCodec{}},
		{"avro-fixed", must(avro.Of(schema))(tb)},
		{"avro-registered", must(avro.Registered(reg, "orders-value", schema))(tb)},
		{"avro-registered-reader", must(avro.Registered(reg, "orders-value", schema, avro.ReaderSchema(schema)))(tb)},
	}
}

// BenchmarkStacks encodes and decodes the record with every stack, bare
// (layer=plain) and wrapped in crypto with an AES-256 key (layer=encrypted;
// the raw-hamba row then seals with raw AES-GCM).
func BenchmarkStacks(b *testing.B) {
	keyring := must(crypto.NewKeyring(crypto.Key{ID: "2026-01", Secret: secret}))(b)
	for _, s := range stacks(b) {
		run(b, "layer=plain/codec="+s.name, s.codec)
		sealed := acemq.Codec(crypto.Wrap(s.codec, keyring))
		switch s.name {
		case "raw-hamba":
			sealed = newRaw(b, true)
		case "raw-encoding-json":
			sealed = newRawJSON(b, true)
		}
		run(b, "layer=encrypted/codec="+s.name, sealed)
	}
}

func run(b *testing.B, name string, c acemq.Codec) {
	v := newOrder()
	body := must(c.Encode(v))(b)
	b.Run("op=encode/"+name, func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpumeter.Start()
		for b.Loop() {
			if _, err := c.Encode(v); err != nil {
				b.Fatal(err)
			}
		}
		cpu.Report(b)
	})
	b.Run("op=decode/"+name, func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpumeter.Start()
		for b.Loop() {
			var out order
			if err := c.Decode(body, &out); err != nil {
				b.Fatal(err)
			}
		}
		cpu.Report(b)
	})
}

// TestStacksRoundTripTheRecord proves every benchmarked stack decodes what
// it encodes, so the benchmarks measure working codecs.
func TestStacksRoundTripTheRecord(t *testing.T) {
	keyring := must(crypto.NewKeyring(crypto.Key{ID: "2026-01", Secret: secret}))(t)
	for _, s := range stacks(t) {
		for _, c := range []acemq.Codec{s.codec, crypto.Wrap(s.codec, keyring), newRaw(t, true), newRawJSON(t, true)} {
			var out order
			if err := c.Decode(must(c.Encode(newOrder()))(t), &out); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			if want := newOrder(); out.OrderID != want.OrderID || *out.Note != *want.Note || len(out.Tags) != 3 || !out.PlacedAt.Equal(want.PlacedAt) {
				t.Fatalf("%s: decoded %+v", s.name, out)
			}
		}
	}
}
