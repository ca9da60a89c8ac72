package outbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
)

// DefaultCheckpointTable is the checkpoints table unless Table says otherwise.
const DefaultCheckpointTable = "acemq_checkpoints"

// Checkpoints keeps each stream reader's position — the offset of the last
// record it finished — in the same database transaction as the reader's
// own writes (Checkpointed), so that a crash never applies a record twice
// nor skips one. By default the positions are rows of a PostgreSQL table;
// WithCheckpointStore puts them in a store of the caller's own. Safe for
// concurrent use.
type Checkpoints struct {
	db    *sql.DB
	store CheckpointStore
	onGap func(ctx context.Context, reader string, gap patterns.StreamGap)
}

// CheckpointOption configures Checkpoints: Table (the table's name, default
// DefaultCheckpointTable), WithCheckpointStore and OnGap.
type CheckpointOption interface {
	applyCheckpoint(*checkpointConfig)
}

// checkpointConfig is what NewCheckpoints was told.
type checkpointConfig struct {
	storeConfig
	store CheckpointStore
	onGap func(ctx context.Context, reader string, gap patterns.StreamGap)
}

// applyCheckpoint makes Table an option of NewCheckpoints too.
func (o StoreOption) applyCheckpoint(c *checkpointConfig) {
	if o != nil {
		o(&c.storeConfig)
	}
}

// checkpointOption is a CheckpointOption that only NewCheckpoints takes.
type checkpointOption func(*checkpointConfig)

func (o checkpointOption) applyCheckpoint(c *checkpointConfig) { o(c) }

// WithCheckpointStore keeps the positions in store instead of the
// PostgreSQL table: a store of the caller's own, on the database db (the
// one NewCheckpoints was given, in whose transactions store reads and
// writes). Table is then ignored, and Migrate runs store's Migrate when it
// has one.
func WithCheckpointStore(store CheckpointStore) CheckpointOption {
	return checkpointOption(func(c *checkpointConfig) { c.store = store })
}

// OnGap sets what is told when a checkpointed reader meets a gap: records
// between its checkpoint and the record it got that the stream no longer
// holds (it fell behind retention). Default: a warning on slog's default
// logger. A gap is never skipped silently.
func OnGap(f func(ctx context.Context, reader string, gap patterns.StreamGap)) CheckpointOption {
	return checkpointOption(func(c *checkpointConfig) { c.onGap = f })
}

// NewCheckpoints returns the checkpoints in db's table acemq_checkpoints
// (see Table, WithCheckpointStore). It runs no SQL: call Migrate, or run
// Schema's DDL yourself.
func NewCheckpoints(db *sql.DB, opts ...CheckpointOption) *Checkpoints {
	cfg := checkpointConfig{storeConfig: storeConfig{table: DefaultCheckpointTable}, onGap: logGap}
	for _, o := range opts {
		if o != nil {
			o.applyCheckpoint(&cfg)
		}
	}
	if cfg.store == nil {
		cfg.store = &sqlCheckpoints{db: db, table: parseTable(cfg.table, "")}
	}
	return &Checkpoints{db: db, store: cfg.store, onGap: cfg.onGap}
}

// Name returns the table's name as given to Table ("" for a store of the
// caller's own).
func (cp *Checkpoints) Name() string {
	if s, ok := cp.store.(*sqlCheckpoints); ok {
		return s.table.raw
	}
	return ""
}

// Schema returns the DDL Migrate runs on PostgreSQL ("" for a store of the
// caller's own). Running it again changes nothing.
func (cp *Checkpoints) Schema() string {
	if s, ok := cp.store.(*sqlCheckpoints); ok {
		return checkpointSchema(s.table)
	}
	return ""
}

// Migrate creates the table when it is missing (Schema's DDL), or runs the
// caller's store's Migrate(ctx) error when it has one. Idempotent.
func (cp *Checkpoints) Migrate(ctx context.Context) error {
	if err := cp.usable(); err != nil {
		return err
	}
	if m, ok := cp.store.(interface{ Migrate(context.Context) error }); ok {
		return m.Migrate(ctx)
	}
	return nil
}

// Position returns where reader resumes: the record after the last one it
// finished, or acemq.StreamFirst() for a reader with no checkpoint yet.
func (cp *Checkpoints) Position(ctx context.Context, reader string) (acemq.StreamPosition, error) {
	if err := cp.usable(); err != nil {
		return acemq.StreamPosition{}, err
	}
	tx, err := cp.db.BeginTx(ctx, nil)
	if err != nil {
		return acemq.StreamPosition{}, fmt.Errorf("acemq: outbox: cannot read the checkpoint of reader %q: %w", reader, err)
	}
	defer tx.Rollback() //nolint:errcheck // it only read
	last, ok, err := cp.store.Last(ctx, tx, reader)
	switch {
	case err != nil:
		return acemq.StreamPosition{}, fmt.Errorf("acemq: outbox: cannot read the checkpoint of reader %q: %w", reader, err)
	case !ok:
		return acemq.StreamFirst(), nil
	}
	return acemq.StreamOffset(last + 1), nil
}

// usable reports why the checkpoints cannot be used, if they cannot.
func (cp *Checkpoints) usable() error {
	if cp == nil {
		return errors.New("acemq: outbox: the checkpoints are nil")
	}
	if cp.db == nil {
		return errors.New("acemq: outbox: the checkpoints were given a nil *sql.DB")
	}
	if s, ok := cp.store.(*sqlCheckpoints); ok && s.table.err != nil {
		return s.table.err
	}
	return nil
}

// logGap is the default gap report.
func logGap(_ context.Context, reader string, g patterns.StreamGap) {
	slog.Default().Warn("acemq: outbox: a checkpointed stream reader lost records past its checkpoint: "+g.String(),
		"reader", reader, "stream", g.Stream, "first_lost", g.First, "last_lost", g.Last)
}
