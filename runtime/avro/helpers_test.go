package avro

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// fixedRegistry is a lookup-only registry holding schemas under the ids the
// vectors name; it counts lookups so tests can prove caching.
type fixedRegistry struct {
	mu      sync.Mutex
	defs    map[int]string
	lookups map[int]int
}

func newFixedRegistry(defs map[int]string) *fixedRegistry {
	return &fixedRegistry{defs: defs, lookups: map[int]int{}}
}

func (r *fixedRegistry) Register(context.Context, string, string, string) (SchemaDefinition, error) {
	return SchemaDefinition{}, fmt.Errorf("fixedRegistry is lookup-only")
}

func (r *fixedRegistry) ByID(_ context.Context, id int) (SchemaDefinition, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lookups[id]++
	d, ok := r.defs[id]
	if !ok {
		return SchemaDefinition{}, ErrSchemaNotFound
	}
	return SchemaDefinition{ID: id, Format: FormatAvro, Definition: d}, nil
}

func (r *fixedRegistry) Latest(context.Context, string) (SchemaDefinition, error) {
	return SchemaDefinition{}, ErrSchemaNotFound
}

func (r *fixedRegistry) Versions(context.Context, string) ([]SchemaDefinition, error) {
	return nil, ErrSchemaNotFound
}

func (r *fixedRegistry) count(id int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lookups[id]
}

// countingRegistry wraps a Registry and counts Register and ByID calls.
type countingRegistry struct {
	Registry
	mu        sync.Mutex
	registers int
	byID      map[int]int
}

func (c *countingRegistry) Register(ctx context.Context, s, f, d string) (SchemaDefinition, error) {
	c.mu.Lock()
	c.registers++
	c.mu.Unlock()
	return c.Registry.Register(ctx, s, f, d)
}

func (c *countingRegistry) ByID(ctx context.Context, id int) (SchemaDefinition, error) {
	c.mu.Lock()
	if c.byID == nil {
		c.byID = map[int]int{}
	}
	c.byID[id]++
	c.mu.Unlock()
	return c.Registry.ByID(ctx, id)
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
