package avro

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// emptyRegistry holds no schema and counts the lookups it answers.
type emptyRegistry struct {
	Registry
	lookups atomic.Int64
}

func (r *emptyRegistry) ByID(context.Context, int) (SchemaDefinition, error) {
	r.lookups.Add(1)
	return SchemaDefinition{}, ErrSchemaNotFound
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// unknownIDCodec is a codec registered as "orders" on a registry that holds
// no schema, its cache of unknown ids reading the time from *clock.
func unknownIDCodec(t *testing.T, clock *time.Time) (*emptyRegistry, *Codec) {
	t.Helper()
	reg := &emptyRegistry{Registry: NewMemoryRegistry()}
	c := must[*Codec](t)(Registered(reg, "orders", orderV1))
	c.reg.unknown.now = func() time.Time { return *clock }
	return reg, c
}

func TestRegisteredUnknownSchemaIDsAreBounded(t *testing.T) {
	clock := time.Unix(1_700_000_000, 0)
	reg, c := unknownIDCodec(t, &clock)
	var out orderV1Go
	decode := func(id int) error { return c.Decode(appendFrame(nil, id, []byte{0}), &out) }

	before := heapInUse()
	const frames = 500_000
	for id := 1; id <= frames; id++ {
		if err := decode(id); !acemq.IsFatal(err) {
			t.Fatalf("unknown id %d: %v, want a fatal error", id, err)
		}
		if id%1000 == 0 {
			clock = clock.Add(time.Second) // 500 seconds in all: 10 lookups a second
		}
	}
	after := heapInUse()
	if grew := int64(after) - int64(before); grew > 1<<20 {
		t.Errorf("%d distinct unknown ids grew the heap by %d bytes, want it flat (under 1 MiB)", frames, grew)
	}
	if n := c.reg.unknown.size(); n > UnknownIDCacheSize {
		t.Errorf("remembers %d unknown ids, want at most %d", n, UnknownIDCacheSize)
	}
	n := 0
	c.reg.plans.Range(func(any, any) bool { n++; return true })
	if n != 0 {
		t.Errorf("keeps %d plans for ids the registry does not hold", n)
	}
	if got, most := reg.lookups.Load(), int64(UnknownIDLookupBurst+500*UnknownIDLookupsPerSecond); got > most {
		t.Errorf("asked the registry %d times for %d unknown ids, want at most %d", got, frames, most)
	}
}

func TestRegisteredUnknownSchemaIDIsNotAskedAgainSoon(t *testing.T) {
	clock := time.Unix(1_700_000_000, 0)
	reg, c := unknownIDCodec(t, &clock)
	var out orderV1Go
	for range 5 {
		err := c.Decode(appendFrame(nil, 42, []byte{0}), &out)
		if !acemq.IsFatal(err) || !errors.Is(err, ErrSchemaNotFound) {
			t.Fatalf("unknown id: %v", err)
		}
	}
	if n := reg.lookups.Load(); n != 1 {
		t.Fatalf("asked the registry %d times about one unknown id, want once", n)
	}
	clock = clock.Add(UnknownIDTTL + time.Second)
	_ = c.Decode(appendFrame(nil, 42, []byte{0}), &out)
	if n := reg.lookups.Load(); n != 2 {
		t.Fatalf("after the TTL asked %d times in all, want a second lookup", n)
	}
}

func TestRegisteredUnknownIDLookupsAreRateLimited(t *testing.T) {
	clock := time.Unix(1_700_000_000, 0)
	reg, c := unknownIDCodec(t, &clock)
	var out orderV1Go
	var limited error
	for id := 1; id <= 100; id++ {
		if err := c.Decode(appendFrame(nil, id, []byte{0}), &out); errors.Is(err, ErrUnknownIDLookupsLimited) {
			limited = err
		}
	}
	if n := reg.lookups.Load(); n != UnknownIDLookupBurst {
		t.Fatalf("100 unknown ids at once made %d lookups, want the burst of %d", n, UnknownIDLookupBurst)
	}
	if !acemq.IsFatal(limited) {
		t.Fatalf("an id past the rate gave %v, want a fatal ErrUnknownIDLookupsLimited", limited)
	}
	clock = clock.Add(time.Second)
	_ = c.Decode(appendFrame(nil, 1000, []byte{0}), &out)
	if n := reg.lookups.Load(); n != UnknownIDLookupBurst+1 {
		t.Fatalf("a second later made %d lookups in all, want one more", n)
	}
}
