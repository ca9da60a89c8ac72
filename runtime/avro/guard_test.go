package avro

import (
	"github.com/acemq/acemq-gen/runtime/internal/membound"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// appendLong appends v in Avro's zigzag varint encoding.
func appendLong(b []byte, vs ...int64) []byte {
	for _, v := range vs {
		u := uint64(v<<1) ^ uint64(v>>63)
		for u >= 0x80 {
			b = append(b, byte(u)|0x80)
			u >>= 7
		}
		b = append(b, byte(u))
	}
	return b
}

const longsSchema = `{"type":"record","name":"Longs","fields":[
  {"name":"xs","type":{"type":"array","items":"long"}},
  {"name":"name","type":"string"}]}`

type longs struct {
	Xs   []int64 `avro:"xs"`
	Name string  `avro:"name"`
}

// wantFatal fails unless err is fatal and mentions want.
func wantFatal(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !acemq.IsFatal(err) || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want a fatal error mentioning %q", err, want)
	}
}

// hamba v2.31.0 adds block counts without an overflow check: two items, then
// two blocks of MaxInt64 items, bring the running total back to 0 and have
// it write the following longs past the end of the slice.
func TestDecodeRefusesArrayBlockCountsThatOverflowTheRunningTotal(t *testing.T) {
	body := appendLong(nil, 2, 7, 7, math.MaxInt64, math.MaxInt64)
	for range 8 {
		body = appendLong(body, 0x4141414141)
	}
	body = appendLong(body, 0, 0)
	var out longs
	wantFatal(t, must[*Codec](t)(Of(longsSchema)).Decode(body, &out), "more than 1048576 array and map items")
}

func TestDecodeRefusesAnArrayLongerThanMaxArrayItems(t *testing.T) {
	var out longs
	err := must[*Codec](t)(Of(longsSchema)).Decode(appendLong(nil, MaxArrayItems+1), &out)
	wantFatal(t, err, "avro.MaxArrayItems")
}

const gridSchema = `{"type":"record","name":"Grid","fields":[
  {"name":"rows","type":{"type":"array","items":{"type":"array","items":"null"}}}]}`

// Items of null take no bytes, so without a budget over the whole message a
// few kilobytes of nested arrays would claim a billion of them.
func TestDecodeRefusesNestedArraysOverTheMessageBudget(t *testing.T) {
	body := appendLong(nil, 1000)
	for range 1000 {
		body = appendLong(body, MaxArrayItems/2, 0)
	}
	body = appendLong(body, 0)
	var out struct {
		Rows [][]any `avro:"rows"`
	}
	wantFatal(t, must[*Codec](t)(Of(gridSchema)).Decode(body, &out), "array and map items in all")
}

func TestDecodeRefusesTheMostNegativeBlockCount(t *testing.T) {
	var out longs
	err := must[*Codec](t)(Of(longsSchema)).Decode(appendLong(nil, math.MinInt64, 0, 0, 0), &out)
	wantFatal(t, err, "negative length")
}

// A negative count carries the block's byte size, which Java's blocking
// encoder writes; it must match the items.
func TestDecodeReadsANegativeCountBlockWhoseSizeMatches(t *testing.T) {
	c := must[*Codec](t)(Of(longsSchema))
	var out longs
	if err := c.Decode(append(appendLong(nil, -2, 2, 7, 9, 0, 1), 'a'), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Xs) != 2 || out.Xs[0] != 7 || out.Xs[1] != 9 || out.Name != "a" {
		t.Fatalf("decoded %+v", out)
	}
	wantFatal(t, c.Decode(appendLong(nil, -2, 3, 7, 9, 0, 0), &out), "byte size does not match")
}

// A length prefix far past the body is refused before hamba allocates it:
// without the walk, any length up to MaxBytesSize (16 MiB) is allocated.
func TestDecodeRefusesAHugeLengthPrefixWithoutAllocatingIt(t *testing.T) {
	c := must[*Codec](t)(Of(longsSchema))
	for _, n := range []int64{MaxBytesSize - 1, MaxBytesSize + 1, 1 << 40, math.MaxInt64} {
		body := append(appendLong(nil, 0, n), 'x')
		var out longs
		allocated := bytesAllocated(func() { wantFatal(t, c.Decode(body, &out), "past the end of the body") })
		if allocated > 64<<10 {
			t.Fatalf("a %d-byte length prefix allocated %d bytes", n, allocated)
		}
	}
}

// A string or bytes length above MaxBytesSize is refused without allocating
// it: by the walk when the body is shorter than the length (it always is
// here), by hamba's own MaxByteSliceSize otherwise.
func TestDecodeRefusesAStringLongerThanMaxBytesSize(t *testing.T) {
	body := appendLong(nil, MaxBytesSize+1)
	var out orderV1Go
	allocated := bytesAllocated(func() {
		wantFatal(t, must[*Codec](t)(Of(orderV1)).Decode(body, &out), "past the end of the body")
	})
	if allocated > 64<<10 {
		t.Fatalf("allocated %d bytes", allocated)
	}
}

func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

const nullsV1 = `{"type":"record","name":"Nulls","fields":[
  {"name":"gaps","type":{"type":"array","items":"null"}},
  {"name":"index","type":{"type":"map","values":"null"}},
  {"name":"name","type":"string"}]}`

const nullsV2 = `{"type":"record","name":"Nulls","fields":[{"name":"name","type":"string"}]}`

// Resolution skips fields the reader lacks; hamba's skipper loops once per
// item a block claims, so an array of nulls claiming 2^40 items would spin
// for hours. The walk refuses it at once.
func TestResolvedDecodeRefusesACountThatWouldSpinTheSkipper(t *testing.T) {
	reg := newFixedRegistry(map[int]string{1: nullsV1})
	c := must[*Codec](t)(Registered(reg, "nulls", nullsV2, ReaderSchema(nullsV2)))
	for _, body := range [][]byte{appendLong(nil, 1<<40), appendLong(nil, 0, 1<<40)} {
		var out struct {
			Name string `avro:"name"`
		}
		wantFatal(t, c.Decode(appendFrame(nil, 1, body), &out), "items")
	}
}

const listSchema = `{"type":"record","name":"Node","fields":[
  {"name":"next","type":["null","Node"]}]}`

type node struct {
	Next *node `avro:"next"`
}

func TestDecodeRefusesNestingDeeperThanMaxDepth(t *testing.T) {
	c := must[*Codec](t)(Of(listSchema))
	shallow := append(appendLong(nil, 1, 1, 1), 0)
	var out node
	if err := c.Decode(shallow, &out); err != nil || out.Next == nil || out.Next.Next == nil || out.Next.Next.Next == nil {
		t.Fatalf("three nodes: %v %+v", err, out)
	}
	deep := make([]byte, 0, 4*MaxDepth)
	for range 2 * MaxDepth {
		deep = appendLong(deep, 1)
	}
	wantFatal(t, c.Decode(append(deep, 0), &out), "nests deeper than 512")
}

func TestGuardRunsOnlyForSchemasThatNeedIt(t *testing.T) {
	const scalars = `{"type":"record","name":"P","fields":[{"name":"n","type":"long"},{"name":"ok","type":"boolean"},{"name":"d","type":"double"}]}`
	for schema, want := range map[string]bool{scalars: false, orderV1: true, longsSchema: true, listSchema: true, nullsV1: true, benchSchema: true} {
		if got := guarded(must[*Codec](t)(Of(schema)).schema) != nil; got != want {
			t.Errorf("guarded(%.40s…) = %v, want %v", schema, got, want)
		}
	}
}

// The walk and hamba must agree on every valid body: the benchmark record
// (array, union, logical types, all primitives) round-trips in every mode.
func TestGuardedRecordRoundTripsInEveryMode(t *testing.T) {
	reg := NewMemoryRegistry()
	for _, c := range []*Codec{
		must[*Codec](t)(Of(benchSchema)),
		must[*Codec](t)(Registered(reg, "orders-value", benchSchema)),
		must[*Codec](t)(Registered(reg, "orders-value", benchSchema, ReaderSchema(benchSchema))),
	} {
		var out benchOrder
		if err := c.Decode(must[[]byte](t)(c.Encode(newBenchOrder())), &out); err != nil {
			t.Fatal(err)
		}
		if out.OrderID != "ord-2026-000042" || *out.Note != "leave at the back door" || len(out.Tags) != 3 || !out.PlacedAt.Equal(placed) {
			t.Fatalf("decoded %+v", out)
		}
	}
}

// The API every codec decodes through carries the package's limits, so hamba
// itself refuses an oversized array or string where no walk runs.
func TestTheFrozenAPIRefusesOversizedArraysAndStrings(t *testing.T) {
	api := newAPI()
	var out longs
	err := api.Unmarshal(must[*Codec](t)(Of(longsSchema)).schema, appendLong(nil, MaxArrayItems+1), &out)
	if err == nil || !strings.Contains(err.Error(), "MaxSliceAllocSize") {
		t.Fatalf("array of MaxArrayItems+1: %v", err)
	}
	var s string
	err = api.Unmarshal(must[*Codec](t)(Of(`"string"`)).schema, appendLong(nil, MaxBytesSize+1), &s)
	if err == nil || !strings.Contains(err.Error(), "MaxByteSliceSize") {
		t.Fatalf("string of MaxBytesSize+1: %v", err)
	}
}

// hamba grows an array's slice to a block's count before it reads an item,
// so without the walk four bytes claiming MaxArrayItems records would
// allocate MaxArrayItems × the record's size (over 100 MiB here).
func TestDecodeRefusesAnArrayCountTheBodyCannotHoldWithoutAllocatingIt(t *testing.T) {
	schema := `{"type":"array","items":` + benchSchema + `}`
	c := must[*Codec](t)(Of(schema))
	body := appendLong(nil, MaxArrayItems)
	var out []benchOrder
	allocated := bytesAllocated(func() { wantFatal(t, c.Decode(body, &out), "past the end of the body") })
	if allocated > 64<<10 {
		t.Fatalf("a 4-byte body claiming %d records allocated %d bytes", MaxArrayItems, allocated)
	}
}

func TestDecodeRefusesEnumAndUnionIndexesOutOfRange(t *testing.T) {
	schema := `{"type":"record","name":"R","fields":[
  {"name":"state","type":{"type":"enum","name":"S","symbols":["A","B"]}},
  {"name":"note","type":["null","string"]},
  {"name":"tags","type":{"type":"array","items":"string"}}]}`
	c := must[*Codec](t)(Of(schema))
	var out map[string]any
	wantFatal(t, c.Decode(appendLong(nil, 2, 0, 0), &out), "enum index 2 out of range")
	wantFatal(t, c.Decode(appendLong(nil, 1, -1, 0), &out), "union index -1 out of range")
	if err := c.Decode(appendLong(nil, 1, 0, 0), &out); err != nil || out["state"] != "B" {
		t.Fatalf("a valid body: %v %v", out, err)
	}
}

func TestAvroShortBodyClaimingALongStringAllocatesLittle(t *testing.T) {
	c := must[*Codec](t)(Of(orderV1))
	body := []byte{0x92, 0xf6, 0x8d, 0x0c} // a string of some 12 MB, and no bytes of it
	var err error
	n := membound.Allocated(func() {
		var out orderV1Go
		err = c.Decode(body, &out)
	})
	wantFatal(t, err, "runs past the end of the body")
	if n > 64<<10 {
		t.Fatalf("refusing a 4-byte body allocated %d bytes", n)
	}
}
