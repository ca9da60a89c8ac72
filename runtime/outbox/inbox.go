package outbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"

	"github.com/acemq/acemq-gen/runtime/internal/option"
)

// Inbox is a table of the message ids each queue's handlers have handled,
// on a PostgreSQL database: Once makes a handler's database effects happen
// once per message id. Safe for concurrent use.
type Inbox struct {
	db    *sql.DB
	table tableName
}

// NewInbox returns the inbox in db's table acemq_inbox (see Table). It runs
// no SQL: call Migrate, or run Schema's DDL yourself.
func NewInbox(db *sql.DB, opts ...StoreOption) *Inbox {
	cfg := storeConfig{table: DefaultInboxTable}
	option.Apply(&cfg, opts)
	return &Inbox{db: db, table: parseTable(cfg.table, inboxLongestSuffix)}
}

// Name returns the table's name as given to Table.
func (in *Inbox) Name() string { return in.table.raw }

// Schema returns the DDL Migrate runs. Running it again changes nothing.
func (in *Inbox) Schema() string { return inboxSchema(in.table) }

// Migrate creates the table and its index when they are missing. Idempotent.
func (in *Inbox) Migrate(ctx context.Context) error {
	if err := in.usable(); err != nil {
		return err
	}
	return migrate(ctx, in.db, in.table, in.Schema())
}

// usable reports why the inbox cannot be used, if it cannot.
func (in *Inbox) usable() error {
	if in == nil {
		return errors.New("acemq: outbox: the inbox is nil")
	}
	if in.table.err != nil {
		return in.table.err
	}
	if in.db == nil {
		return errors.New("acemq: outbox: the inbox was given a nil *sql.DB")
	}
	return nil
}

// Once returns a handler that runs h at most once to completion per message
// id (the envelope's x-acemq-id) and consuming queue: it begins a
// transaction, records the id for m.Queue in the inbox within it and runs h
// with it. When h returns Accept the transaction commits — h's writes and the
// record together; any other Ack rolls them back and is then applied (a
// Retry runs h again later). A delivery whose id is already recorded is
// accepted without running h; one whose first delivery is still being
// handled waits for it. Failing to begin, to record or to commit is a Retry.
//
// With the outbox on the producing side, h's database effects happen exactly
// once per published message although delivery is at least once. Effects
// outside tx (an e-mail, an HTTP call) can still happen twice.
func Once[T any](in *Inbox, h func(ctx context.Context, tx *sql.Tx, m acemq.Message[T]) acemq.Ack) acemq.Handler[T] {
	return func(ctx context.Context, m acemq.Message[T]) acemq.Ack {
		if ack, refused := refusal(in.usable(), h == nil, "outbox.Once"); refused {
			return ack
		}
		return in.once(ctx, m.Queue, m.Envelope.ID, func(tx *sql.Tx) acemq.Ack { return h(ctx, tx, m) })
	}
}

// refusal is the Ack of a transactional handler (Once, Checkpointed) that
// cannot run: a Retry while its store is unusable, a fatal Reject when who
// was given a nil handler.
func refusal(unusable error, nilHandler bool, who string) (ack acemq.Ack, refused bool) {
	if unusable != nil {
		return acemq.Retry(unusable), true
	}
	if nilHandler {
		return acemq.Reject(acemq.Fatal(errors.New("acemq: " + who + " was given a nil handler"))), true
	}
	return acemq.Accept(), false
}

// once is Once's work for one message.
func (in *Inbox) once(ctx context.Context, queue, id string, run func(*sql.Tx) acemq.Ack) acemq.Ack {
	tx, err := in.db.BeginTx(ctx, nil)
	if err != nil {
		return acemq.Retry(fmt.Errorf("acemq: outbox: cannot begin the inbox transaction of message %s: %w", id, err))
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	fresh, err := in.record(ctx, tx, queue, id)
	if err != nil {
		return acemq.Retry(err)
	}
	if !fresh {
		return acemq.Accept()
	}
	ack := run(tx)
	if ack.String() != acemq.Accept().String() {
		return ack
	}
	if err := tx.Commit(); err != nil {
		return acemq.Retry(fmt.Errorf("acemq: outbox: cannot commit the handling of message %s: %w", id, err))
	}
	return ack
}

// record inserts (queue, id); fresh is false when it was already there. A
// concurrent first handling of the same id holds the key until it ends.
func (in *Inbox) record(ctx context.Context, tx *sql.Tx, queue, id string) (fresh bool, err error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO `+in.table.quoted+` (queue, message_id) VALUES ($1, $2)
ON CONFLICT (queue, message_id) DO NOTHING`, queue, id)
	if err != nil {
		return false, fmt.Errorf("acemq: outbox: cannot record message %s in %s: %w", id, in.table.raw, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("acemq: outbox: cannot record message %s in %s: %w", id, in.table.raw, err)
	}
	return n == 1, nil
}
