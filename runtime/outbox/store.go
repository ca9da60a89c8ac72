package outbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// DefaultTable is the outbox table unless Table says otherwise.
const DefaultTable = "acemq_outbox"

// DefaultInboxTable is the inbox table unless Table says otherwise.
const DefaultInboxTable = "acemq_inbox"

// StoreOption configures a Store or an Inbox.
type StoreOption func(*storeConfig)

// storeConfig is what NewStore or NewInbox was told.
type storeConfig struct {
	table string
}

// Table names the table (optionally schema-qualified, "app.outbox"): for a
// Store default DefaultTable, for an Inbox DefaultInboxTable. A name that is
// not one or two SQL identifiers ([A-Za-z_][A-Za-z0-9_]*), or that is too
// long for the objects derived from it (for a Store: the table's own name at
// most 50 characters; for an Inbox: at most 52; for both, 63 with its
// schema), makes every operation of the store fail saying so
// (ErrInvalidTableName).
func Table(name string) StoreOption {
	return func(c *storeConfig) { c.table = name }
}

// identifier is a table name the store accepts: one or two identifiers that
// are always double-quoted in the SQL and need no escaping inside quotes.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$`)

// MaxIdentifierLength is PostgreSQL's longest identifier, in bytes
// (NAMEDATALEN-1): a longer name is truncated by the server, so the objects a
// store derives from its table name would collide or go missing.
const MaxIdentifierLength = 63

// ErrInvalidTableName matches (errors.Is) the error of every operation of a
// Store or Inbox whose table name Table was given cannot be used: not one or
// two SQL identifiers, or too long for the names derived from it.
var ErrInvalidTableName = errors.New("acemq: outbox: invalid table name")

// tableNameError is why a table name cannot be used; it matches
// ErrInvalidTableName.
type tableNameError struct{ msg string }

func (e *tableNameError) Error() string        { return e.msg }
func (e *tableNameError) Is(target error) bool { return target == ErrInvalidTableName }

// Suffixes of the objects derived from a table name (schema.go), the longest
// of each kind of store: its base name plus this must fit an identifier.
const (
	outboxLongestSuffix = "_commit_order" // also _commit_seq, _pending, _published
	inboxLongestSuffix  = "_handled_at"
)

// tableName is a validated table name in the forms the SQL needs.
type tableName struct {
	raw    string // as given: app.outbox
	quoted string // "app"."outbox"
	base   string // outbox (for derived object names)
	schema string // "app". or "" (prefix of derived objects)
	err    error
}

// parseTable validates name, whose derived objects end at most in suffix
// and which is a LISTEN/NOTIFY channel name as a whole, and derives its
// forms.
func parseTable(name, suffix string) tableName {
	if !identifier.MatchString(name) {
		return tableName{raw: name, err: &tableNameError{fmt.Sprintf("acemq: outbox: %q is not a table name (one or two SQL identifiers, [A-Za-z_][A-Za-z0-9_]*)", name)}}
	}
	t := tableName{raw: name, base: name}
	if schema, base, ok := strings.Cut(name, "."); ok {
		t.schema, t.base = `"`+schema+`".`, base
	}
	if err := checkLength(name, t.base, suffix); err != nil {
		return tableName{raw: name, err: err}
	}
	t.quoted = t.schema + `"` + t.base + `"`
	return t
}

// checkLength refuses a name whose derived identifiers PostgreSQL would
// truncate: the table's own name plus suffix, and the name as given (the
// NOTIFY channel).
func checkLength(name, base, suffix string) error {
	limit := MaxIdentifierLength - len(suffix)
	switch {
	case len(base) > limit:
		return &tableNameError{fmt.Sprintf("acemq: outbox: table name %q is too long: the table's own name may have at most %d characters (%d, the PostgreSQL identifier limit, less the %d of %q)",
			name, limit, MaxIdentifierLength, len(suffix), suffix)}
	case len(name) > MaxIdentifierLength:
		return &tableNameError{fmt.Sprintf("acemq: outbox: table name %q is too long: it may have at most %d characters with its schema (the PostgreSQL identifier limit, which the store's NOTIFY channel, named after the table, is held to)",
			name, MaxIdentifierLength)}
	}
	return nil
}

// derived returns the quoted name of an object belonging to the table.
func (t tableName) derived(suffix string) string { return t.schema + `"` + t.base + "_" + suffix + `"` }

// Store is an outbox table on a PostgreSQL database: Within writes into it,
// a Relay empties it. Safe for concurrent use.
type Store struct {
	db    *sql.DB
	table tableName
}

// NewStore returns the outbox in db's table acemq_outbox (see Table). It
// runs no SQL: call Migrate, or run Schema's DDL yourself.
func NewStore(db *sql.DB, opts ...StoreOption) *Store {
	cfg := storeConfig{table: DefaultTable}
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	return &Store{db: db, table: parseTable(cfg.table, outboxLongestSuffix)}
}

// errNoDB is the error of a store built on a nil *sql.DB.
var errNoDB = errors.New("acemq: outbox: the store was given a nil *sql.DB")

// usable reports why the store cannot be used, if it cannot.
func (s *Store) usable() error {
	if s == nil {
		return errors.New("acemq: outbox: the store is nil")
	}
	if s.table.err != nil {
		return s.table.err
	}
	return nil
}

// Name returns the table's name as given to Table.
func (s *Store) Name() string { return s.table.raw }

// Schema returns the DDL Migrate runs, for those who run their own
// migrations: the table, its commit-order sequence and trigger, and its
// indexes. Running it again changes nothing.
func (s *Store) Schema() string { return outboxSchema(s.table) }

// Migrate creates the table, its sequence, trigger and indexes when they are
// missing (Schema's DDL), under an advisory lock so that replicas starting
// together do not race. Idempotent.
func (s *Store) Migrate(ctx context.Context) error {
	if err := s.usable(); err != nil {
		return err
	}
	return migrate(ctx, s.db, s.table, s.Schema())
}

// migrate runs ddl in one transaction holding the table's advisory lock.
func migrate(ctx context.Context, db *sql.DB, t tableName, ddl string) error {
	if db == nil {
		return errNoDB
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("acemq: outbox: cannot migrate %s: %w", t.raw, err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey("migrate:"+t.raw)); err != nil {
		return fmt.Errorf("acemq: outbox: cannot migrate %s: %w", t.raw, err)
	}
	if _, err := tx.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("acemq: outbox: cannot migrate %s: %w", t.raw, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("acemq: outbox: cannot migrate %s: %w", t.raw, err)
	}
	return nil
}
