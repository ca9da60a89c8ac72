package outbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// CheckpointStore is where Checkpoints keeps each reader's position, read
// and written within the transaction that applies a record. The PostgreSQL
// table is one; WithCheckpointStore takes another (another database, another
// SQL dialect). A store may also have Migrate(ctx) error, which
// Checkpoints.Migrate runs.
type CheckpointStore interface {
	// Last returns the offset of the last record reader finished; ok is
	// false for a reader with no checkpoint. It should lock the reader's
	// checkpoint until tx ends (SELECT ... FOR UPDATE), so that two
	// instances of one reader apply a record once between them.
	Last(ctx context.Context, tx *sql.Tx, reader string) (offset int64, ok bool, err error)
	// Save records within tx that reader finished the record at offset. It
	// must fail, rather than move the checkpoint back or leave it, when the
	// stored offset is already offset or past it.
	Save(ctx context.Context, tx *sql.Tx, reader string, offset int64) error
}

// sqlCheckpoints is the PostgreSQL CheckpointStore: a row per reader.
type sqlCheckpoints struct {
	db    *sql.DB
	table tableName
}

// errCheckpointPassed is Save's error when the stored offset is not behind.
var errCheckpointPassed = errors.New("acemq: outbox: the reader's checkpoint is already at or past this record")

func (s *sqlCheckpoints) Last(ctx context.Context, tx *sql.Tx, reader string) (int64, bool, error) {
	var last int64
	err := tx.QueryRowContext(ctx, `SELECT last_offset FROM `+s.table.quoted+` WHERE reader = $1 FOR UPDATE`, reader).Scan(&last)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("acemq: outbox: cannot read reader %q's checkpoint in %s: %w", reader, s.table.raw, err)
	}
	return last, true, nil
}

func (s *sqlCheckpoints) Save(ctx context.Context, tx *sql.Tx, reader string, offset int64) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO `+s.table.quoted+` AS c (reader, last_offset) VALUES ($1, $2)
ON CONFLICT (reader) DO UPDATE SET last_offset = EXCLUDED.last_offset, updated_at = now()
WHERE c.last_offset < EXCLUDED.last_offset`, reader, offset)
	if err != nil {
		return fmt.Errorf("acemq: outbox: cannot save reader %q's checkpoint %d in %s: %w", reader, offset, s.table.raw, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("acemq: outbox: cannot save reader %q's checkpoint %d in %s: %w", reader, offset, s.table.raw, errors.Join(errCheckpointPassed, err))
	}
	return nil
}

// Migrate creates the table when it is missing.
func (s *sqlCheckpoints) Migrate(ctx context.Context) error {
	return migrate(ctx, s.db, s.table, checkpointSchema(s.table))
}
