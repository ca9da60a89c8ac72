package avro

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// MemoryRegistry is an in-process Registry: ids count from 1 per registry,
// nothing survives the process, and no compatibility is checked. One schema
// (by canonical-form fingerprint) has one id across subjects, as in the
// Confluent registry. Safe for concurrent use.
type MemoryRegistry struct {
	mu       sync.RWMutex
	byID     map[int]SchemaDefinition
	idByFP   map[string]int
	subjects map[string][]SchemaDefinition
}

var _ Registry = (*MemoryRegistry)(nil)

// NewMemoryRegistry returns an empty in-process registry.
func NewMemoryRegistry() *MemoryRegistry {
	return &MemoryRegistry{byID: map[int]SchemaDefinition{}, idByFP: map[string]int{}, subjects: map[string][]SchemaDefinition{}}
}

// Register stores definition under subject (format "" means "avro"). A schema the subject already
// holds in the same canonical form returns the existing definition; an Avro
// definition that does not parse is refused.
func (r *MemoryRegistry) Register(ctx context.Context, subject, format, definition string) (SchemaDefinition, error) {
	if err := ctx.Err(); err != nil {
		return SchemaDefinition{}, err
	}
	if subject == "" {
		return SchemaDefinition{}, errNoSubject
	}
	fp, err := Fingerprint(format, definition)
	if err != nil {
		return SchemaDefinition{}, fmt.Errorf("acemq: cannot register an invalid Avro schema under %q: %w", subject, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range r.subjects[subject] {
		if d.Fingerprint == fp {
			return d, nil
		}
	}
	return r.addLocked(subject, format, definition, fp), nil
}

func (r *MemoryRegistry) addLocked(subject, format, definition, fp string) SchemaDefinition {
	id, ok := r.idByFP[fp]
	if !ok {
		id = len(r.idByFP) + 1
		r.idByFP[fp] = id
	}
	d := SchemaDefinition{ID: id, Subject: subject, Version: len(r.subjects[subject]) + 1, Format: formatOr(format),
		Definition: definition, Fingerprint: fp, RegisteredAt: time.Now()}
	if !ok {
		r.byID[id] = d
	}
	r.subjects[subject] = append(r.subjects[subject], d)
	return d
}

// ByID returns the schema registered under id (as first registered, when it
// is under several subjects), or ErrSchemaNotFound.
func (r *MemoryRegistry) ByID(ctx context.Context, id int) (SchemaDefinition, error) {
	if err := ctx.Err(); err != nil {
		return SchemaDefinition{}, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	d, ok := r.byID[id]
	if !ok {
		return SchemaDefinition{}, fmt.Errorf("%w: id %d", ErrSchemaNotFound, id)
	}
	return d, nil
}

// Latest returns the newest version under subject, or ErrSchemaNotFound.
func (r *MemoryRegistry) Latest(ctx context.Context, subject string) (SchemaDefinition, error) {
	all, err := r.Versions(ctx, subject)
	if err != nil {
		return SchemaDefinition{}, err
	}
	return all[len(all)-1], nil
}

// Versions returns every version under subject, oldest first, or
// ErrSchemaNotFound.
func (r *MemoryRegistry) Versions(ctx context.Context, subject string) ([]SchemaDefinition, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	all := r.subjects[subject]
	if len(all) == 0 {
		return nil, fmt.Errorf("%w: subject %q", ErrSchemaNotFound, subject)
	}
	return append([]SchemaDefinition(nil), all...), nil
}
