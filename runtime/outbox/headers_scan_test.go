package outbox

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// familyColumn is the headers column of a publisher's message as
// PostgreSQL's jsonb returns it.
const familyColumn = `{"x-tenant": {"string": "acme"}, "x-acemq-id": {"string": "5f0c6a8e-1111-4c5e-9d7e-0123456789ab"}, "x-acemq-type": {"string": "orders"}, "x-acemq-origin": {"string": "acemq@host"}, "x-acemq-attempt": {"long": 1}, "x-acemq-version": {"long": 1}, "x-acemq-first-seen": {"long": 1796345820134}, "x-acemq-correlation": {"string": "5f0c6a8e-1111-4c5e-9d7e-0123456789ab"}}`

// sameHeaders compares two decoded tables, NaN included.
func sameHeaders(a, b map[string]any) bool { return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b) }

// The relay reads the family's headers without encoding/json, to the same
// table encoding/json reads.
func TestTheRelayReadsAPublishersHeadersWithoutEncodingJSON(t *testing.T) {
	fast, ok := scanHeaders([]byte(familyColumn))
	if !ok {
		t.Fatal("scanHeaders did not read a publisher's headers column")
	}
	slow, err := decodeHeadersJSON([]byte(familyColumn))
	if err != nil || !sameHeaders(fast, slow) {
		t.Fatalf("scanHeaders = %#v\nencoding/json = %#v, %v", fast, slow, err)
	}
	if fast["x-acemq-first-seen"] != int64(1796345820134) || fast["x-tenant"] != "acme" {
		t.Errorf("headers = %#v", fast)
	}
	fastAllocs := testing.AllocsPerRun(50, func() { _, _ = decodeHeaders([]byte(familyColumn)) })
	slowAllocs := testing.AllocsPerRun(50, func() { _, _ = decodeHeadersJSON([]byte(familyColumn)) })
	if fastAllocs*3 > slowAllocs {
		t.Errorf("decodeHeaders allocates %v times, encoding/json %v: want at most a third", fastAllocs, slowAllocs)
	}
}

// Every value type the outbox stores reads back the same through both
// paths; what scanHeaders does not take (arrays, tables, escapes, bad JSON)
// goes to encoding/json, which reports what is wrong.
func TestScanHeadersAgreesWithEncodingJSONOrLeavesItToIt(t *testing.T) {
	h := map[string]any{"s": "text", "b": []byte{0, 1, 2}, "t": true, "f": false, "i": 7, "i8": int8(-8),
		"i16": int16(16), "i32": int32(-32), "l": int64(math.MaxInt64), "u8": uint8(8), "u16": uint16(16),
		"u32": uint32(32), "u64": uint64(math.MaxUint64), "f32": float32(1.5), "f64": 2.25, "nan": math.NaN(),
		"inf": math.Inf(-1), "time": time.Date(2026, 12, 4, 1, 2, 3, 4, time.UTC), "nil": nil, "é": "ünïcode"}
	col, err := encodeHeaders(h)
	if err != nil {
		t.Fatal(err)
	}
	fast, ok := scanHeaders(col)
	slow, err := decodeHeadersJSON(col)
	if !ok || err != nil || !sameHeaders(fast, slow) {
		t.Fatalf("scanHeaders = %#v, %v\nencoding/json = %#v, %v", fast, ok, slow, err)
	}
	for _, in := range []string{`{"a": {"array": [{"long": 1}]}}`, `{"a": {"table": {}}}`, `{"a": {"string": "q\"uote"}}`,
		`{"a": {"string": 1}}`, `{"a": {"long": 01}}`, `{"a": {"long": 1}`, `{"a": {"long": 1, "int": 2}}`,
		`{"a": {"nope": 1}}`, `{"a": {"long": 1}} x`, "{\"a\": {\"string\": \"\xff\"}}", `[]`} {
		if _, ok := scanHeaders([]byte(in)); ok {
			t.Errorf("scanHeaders took %s, which is encoding/json's to read", in)
		}
	}
}

// FuzzScanHeadersAgreesWithEncodingJSON: whatever scanHeaders takes,
// encoding/json reads to the same table.
func FuzzScanHeadersAgreesWithEncodingJSON(f *testing.F) {
	f.Add([]byte(familyColumn))
	f.Add([]byte(`{"a": null, "b": {"double": "NaN"}, "c": {"uint64": "18446744073709551615"}, "d": {"bool": true}}`))
	f.Add([]byte(`{ }`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		fast, ok := scanHeaders(raw)
		if !ok {
			return
		}
		slow, err := decodeHeadersJSON(raw)
		if err != nil || !sameHeaders(fast, slow) {
			t.Fatalf("%q: scanHeaders = %#v\nencoding/json = %#v, %v", raw, fast, slow, err)
		}
	})
}

// BenchmarkDecodeHeaders reads a publisher's headers column: the relay's
// scanner beside encoding/json.
func BenchmarkDecodeHeaders(b *testing.B) {
	raw := []byte(familyColumn)
	for name, decode := range map[string]func([]byte) (map[string]any, error){"scan": decodeHeaders, "encoding-json": decodeHeadersJSON} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decode(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
