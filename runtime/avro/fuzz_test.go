package avro

import (
	"bytes"
	"encoding/base64"
	"math"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/membound"
)

// FuzzConfluentFrame feeds arbitrary bodies to the frame reader and to a
// registered codec: neither may panic, every decode failure must be fatal
// (the registry here is in memory, so nothing is transient), and a frame that
// splits must reassemble to the same bytes.
func FuzzConfluentFrame(f *testing.F) {
	for _, seed := range []string{"AAAAAAEGQS0xCGFjbWW0QgZHQlAB", "AAAAAAcGby0xtEIIYWNtZQ==", "AAAAAGUGby0xxBM=", "BkEtMQhhY21ltEIGR0JQAQ==", "", "AA==", "AAAAAAE="} {
		b, _ := base64.StdEncoding.DecodeString(seed)
		f.Add(b)
	}
	reg := NewMemoryRegistry()
	codec := must[*Codec](f)(Registered(reg, "orders", orderV2, ReaderSchema(orderV2)))
	if _, err := must[*Codec](f)(Registered(reg, "orders", orderV1)).Encode(orderV1Go{}); err != nil { // registers id 1
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		membound.Check(t, len(body), allocPerByte, func() { fuzzFrame(t, codec, body) })
	})
}

// allocPerByte bounds what a decode may allocate per body byte (beyond
// membound.Slack): the guard walk refuses counts and lengths the body
// cannot hold, so hamba allocates in proportion to the bytes.
const allocPerByte = 256

// fuzzFrame splits body as a frame and decodes it with codec.
func fuzzFrame(t *testing.T, codec *Codec, body []byte) {
	if id, payload, err := splitFrame(body); err == nil {
		if !bytes.Equal(appendFrame(nil, id, payload), body) {
			t.Fatalf("frame % x does not reassemble", body)
		}
	} else if !acemq.IsFatal(err) {
		t.Fatalf("non-fatal frame error %v", err)
	}
	var out map[string]any
	if err := codec.Decode(body, &out); err != nil && !acemq.IsFatal(err) {
		t.Fatalf("non-fatal decode error %v", err)
	}
}

// richSchema has every kind of value the walk and hamba read: arrays, maps,
// unions, an enum, a fixed, bytes, floats, logical types and recursion.
const richSchema = `{"type":"record","name":"Rich","namespace":"com.acme","fields":[
  {"name":"id","type":"string"},
  {"name":"at","type":{"type":"long","logicalType":"timestamp-micros"}},
  {"name":"n","type":"int"},
  {"name":"ok","type":"boolean"},
  {"name":"f","type":"float"},
  {"name":"d","type":"double"},
  {"name":"raw","type":"bytes"},
  {"name":"hash","type":{"type":"fixed","name":"Hash","size":4}},
  {"name":"state","type":{"type":"enum","name":"State","symbols":["NEW","DONE"]}},
  {"name":"tags","type":{"type":"array","items":"string"}},
  {"name":"gaps","type":{"type":"array","items":"null"}},
  {"name":"attrs","type":{"type":"map","values":["null","long"]}},
  {"name":"next","type":["null","Rich"],"default":null}]}`

// richReader keeps two of richSchema's fields, so resolving onto it skips
// every other kind of value.
const richReader = `{"type":"record","name":"Rich","namespace":"com.acme","fields":[
  {"name":"id","type":"string"},
  {"name":"extra","type":"string","default":"none"}]}`

type rich struct {
	ID    string            `avro:"id"`
	At    time.Time         `avro:"at"`
	N     int32             `avro:"n"`
	OK    bool              `avro:"ok"`
	F     float32           `avro:"f"`
	D     float64           `avro:"d"`
	Raw   []byte            `avro:"raw"`
	Hash  [4]byte           `avro:"hash"`
	State string            `avro:"state"`
	Tags  []string          `avro:"tags"`
	Gaps  []any             `avro:"gaps"`
	Attrs map[string]*int64 `avro:"attrs"`
	Next  *rich             `avro:"next"`
}

// FuzzAvroDecode feeds arbitrary bodies to a fixed codec (into a struct and
// into a map) and to a registered codec that resolves onto a smaller reader
// schema (hamba's skip path): no panic, no hang, every failure fatal, and a
// value the struct decode accepts encodes and decodes again.
func FuzzAvroDecode(f *testing.F) {
	fixed := must[*Codec](f)(Of(richSchema))
	n := int64(7)
	seed := rich{ID: "r-1", At: placed, N: -3, OK: true, F: 1.5, D: -2.25, Raw: []byte{0, 1}, Hash: [4]byte{1, 2, 3, 4},
		State: "DONE", Tags: []string{"a", "bc"}, Gaps: []any{nil, nil}, Attrs: map[string]*int64{"k": &n},
		Next: &rich{ID: "r-2", State: "NEW", At: placed}}
	body := must[[]byte](f)(fixed.Encode(seed))
	for _, b := range [][]byte{body, body[:len(body)/2], {}, appendLong(nil, 2, 7, 7, math.MaxInt64, math.MaxInt64)} {
		f.Add(b)
	}
	reg := newFixedRegistry(map[int]string{1: richSchema})
	resolving := must[*Codec](f)(Registered(reg, "rich", richReader, ReaderSchema(richReader)))
	f.Fuzz(func(t *testing.T, body []byte) {
		membound.Check(t, len(body), allocPerByte, func() {
			fuzzFixed(t, fixed, body)
			var m map[string]any
			mustBeFatal(t, fixed.Decode(body, &m))
			var small struct {
				ID    string `avro:"id"`
				Extra string `avro:"extra"`
			}
			mustBeFatal(t, resolving.Decode(appendFrame(nil, 1, body), &small))
		})
	})
}

func fuzzFixed(t *testing.T, c *Codec, body []byte) {
	var out rich
	err := c.Decode(body, &out)
	mustBeFatal(t, err)
	if err != nil {
		return
	}
	again, err := c.Encode(out)
	if err != nil {
		t.Fatalf("a decoded value does not re-encode: %v", err)
	}
	var back rich
	if err := c.Decode(again, &back); err != nil {
		t.Fatalf("a re-encoded value does not decode: %v", err)
	}
}

func mustBeFatal(t *testing.T, err error) {
	t.Helper()
	if err != nil && !acemq.IsFatal(err) {
		t.Fatalf("non-fatal decode error %v", err)
	}
}
