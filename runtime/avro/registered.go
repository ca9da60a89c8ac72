package avro

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/safecall"
	hamba "github.com/hamba/avro/v2"

	"github.com/acemq/acemq-gen/runtime/internal/option"
)

var errNoSubject = errors.New("acemq: a schema needs a subject to be registered under")

// Option configures Registered.
type Option func(*options)

type options struct {
	reader    string
	hasReader bool
}

// ReaderSchema makes a registered codec resolve every message's writer
// schema onto schema, the one this consumer was written against: a field the
// writer omitted arrives carrying schema's default, a field schema does not
// declare is skipped. Resolution is computed once per writer id. It changes
// nothing on the wire. Default: none, so a message decodes in the shape its
// writer wrote it.
func ReaderSchema(schema string) Option {
	return func(o *options) { o.reader, o.hasReader = schema, true }
}

// registered is the registry half of a codec built with Registered.
type registered struct {
	registry Registry
	subject  string
	reader   hamba.Schema // nil without ReaderSchema
	readerTx string
	// register is the text registered for the writer: the reader schema's
	// when it describes the same record (it keeps the defaults, docs and
	// aliases a registry's compatibility checks need), else "": the
	// writer's own.
	register string
	compat   *hamba.SchemaCompatibility

	idMu sync.Mutex   // held while registering
	id   atomic.Int64 // 0 until registered; read without the lock

	plans   sync.Map                   // int -> *planCell, for ids the registry holds
	last    atomic.Pointer[planResult] // the plan most recently used, checked first
	unknown *unknownIDs                // ids the registry does not hold, bounded
}

// planCell holds what decoding one writer id needs, computed once: after
// that, decoding reads it without a lock.
type planCell struct {
	mu   sync.Mutex
	done atomic.Pointer[planResult]
}

// planResult is a computed plan. Fatal errors are remembered; transient ones
// are not.
type planResult struct {
	id   int
	plan plan
	err  error
}

// plan is how one writer's messages decode: with decode (the writer's schema,
// or it resolved onto the reader's), after the guard walk along the writer's
// schema when guard is not nil.
type plan struct {
	decode hamba.Schema
	guard  *gnode
}

// Registered returns a codec that frames each message with the registry id
// of schema under subject (content type application/vnd.acemq.avro), the
// way Confluent's clients do. The schema is registered once, on first use.
//
// When ReaderSchema gives a schema with the same canonical form as schema
// (the same record, with defaults, docs or aliases added, as generated code
// passes the contract's full schema), that text is what is registered: a
// registry checking BACKWARD compatibility must see a new field's default
// to accept it, and canonical form drops defaults.
func Registered(reg Registry, subject, schema string, opts ...Option) (*Codec, error) {
	if reg == nil {
		return nil, errors.New("acemq: avro.Registered needs a registry")
	}
	if subject == "" {
		return nil, errNoSubject
	}
	c, err := Of(schema)
	if err != nil {
		return nil, err
	}
	c.reg, err = newRegistered(reg, subject, opts)
	if err == nil && c.reg.reader != nil && c.reg.reader.String() == c.schema.String() {
		c.reg.register = c.reg.readerTx
	}
	return c, err
}

func newRegistered(reg Registry, subject string, opts []Option) (*registered, error) {
	var o options
	option.Apply(&o, opts)
	r := &registered{registry: reg, subject: subject, compat: hamba.NewSchemaCompatibility(), unknown: newUnknownIDs()}
	if !o.hasReader {
		return r, nil
	}
	s, err := parse(o.reader)
	if err != nil {
		return nil, fmt.Errorf("acemq: this is not a usable Avro reader schema: %w", err)
	}
	r.reader, r.readerTx = s, o.reader
	return r, nil
}

func (r *registered) schemaID(ctx context.Context, text string) (int, error) {
	if id := r.id.Load(); id != 0 {
		return int(id), nil
	}
	r.idMu.Lock()
	defer r.idMu.Unlock()
	if id := r.id.Load(); id != 0 {
		return int(id), nil
	}
	def, err := safecall.Call(registryName, func() (SchemaDefinition, error) {
		return r.registry.Register(ctx, r.subject, FormatAvro, cmp.Or(r.register, text))
	})
	if err != nil {
		return 0, wrapf(err, "registering the schema of subject %q", r.subject)
	}
	if def.ID <= 0 || def.ID > math.MaxUint32 {
		return 0, fmt.Errorf("acemq: the registry gave subject %q the id %d, which a frame cannot carry", r.subject, def.ID)
	}
	r.id.Store(int64(def.ID))
	return def.ID, nil
}

// plan returns how to decode writer id's messages. Most consumers see one
// writer id at a time, so the last plan used is checked before the map.
func (r *registered) plan(id int) (plan, error) {
	if last := r.last.Load(); last != nil && last.id == id {
		return last.plan, nil
	}
	v, ok := r.plans.Load(id)
	if !ok {
		if err := r.refuseUnknown(id); err != nil {
			return plan{}, err
		}
		v, _ = r.plans.LoadOrStore(id, &planCell{})
	}
	cell := v.(*planCell)
	res := cell.done.Load()
	if res == nil {
		return r.fill(cell, id)
	}
	if res.err == nil {
		r.last.Store(res)
	}
	return res.plan, res.err
}

// refuseUnknown returns the error for a message naming id, which has no
// plan yet, when the registry recently did not hold it or lookups of unknown
// ids are over their rate; nil when the registry may be asked.
func (r *registered) refuseUnknown(id int) error {
	if r.unknown.known(id) {
		return acemq.Fatal(wrapf(ErrSchemaNotFound, "this message names schema %d, which the registry does not hold", id))
	}
	if !r.unknown.mayLookUp() {
		return acemq.Fatalf("acemq: this message names schema %d, not yet seen here: %w (%d a second)", id, ErrUnknownIDLookupsLimited, UnknownIDLookupsPerSecond)
	}
	return nil
}

// fill computes cell's plan under its lock, keeping it unless the error is
// transient or a panic of the registry (a bug that a fix and a redeploy of
// the registry alone may cure, so the next message asks again), or the
// registry does not hold id: then the cell is dropped, and id joins the
// bounded set of unknown ids, so a flood of made-up ids keeps nothing.
func (r *registered) fill(cell *planCell, id int) (plan, error) {
	cell.mu.Lock()
	defer cell.mu.Unlock()
	if res := cell.done.Load(); res != nil {
		return res.plan, res.err
	}
	p, err := r.computePlan(id)
	switch {
	case err == nil || acemq.IsFatal(err) && !isPanic(err) && !errors.Is(err, ErrSchemaNotFound):
		cell.done.Store(&planResult{id: id, plan: p, err: err})
	case errors.Is(err, ErrSchemaNotFound):
		r.unknown.add(id)
		r.plans.CompareAndDelete(id, cell)
	default:
		r.plans.CompareAndDelete(id, cell)
	}
	return p, err
}

func (r *registered) computePlan(id int) (plan, error) {
	def, err := safecall.Call(registryName, func() (SchemaDefinition, error) {
		return r.registry.ByID(context.Background(), id)
	})
	if isPanic(err) {
		return plan{}, acemq.Fatal(wrapf(err, "looking up schema %d", id))
	}
	if errors.Is(err, ErrSchemaNotFound) {
		return plan{}, acemq.Fatal(wrapf(err, "this message names schema %d, which the registry does not hold", id))
	}
	if err != nil {
		return plan{}, wrapf(err, "looking up schema %d", id)
	}
	writer, err := parse(def.Definition)
	if err != nil {
		return plan{}, acemq.Fatalf("acemq: schema %d in the registry is not a usable Avro schema: %w", id, err)
	}
	if r.reader == nil {
		return plan{decode: writer, guard: guarded(writer)}, nil
	}
	resolved, err := r.resolve(id, writer, def.Definition)
	return plan{decode: resolved, guard: guarded(writer)}, err
}

func (r *registered) resolve(id int, writer hamba.Schema, writerText string) (hamba.Schema, error) {
	s, err := r.compat.Resolve(r.reader, writer)
	if err != nil {
		return nil, acemq.Fatalf("acemq: schema %d cannot be read as this consumer's schema: %w\n  written with: %s\n  read as: %s",
			id, err, writerText, r.readerTx)
	}
	return s, nil
}

// registryName names the registry in the error its panic becomes.
const registryName = "the schema registry"

// isPanic reports whether err is a panic of the registry, recovered.
func isPanic(err error) bool {
	var pe *safecall.PanicError
	return errors.As(err, &pe)
}
