package outbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// markTimeout bounds the statements that record a batch's outcome, which
// run even when Run's context has ended (what was confirmed is recorded).
const markTimeout = 10 * time.Second

// row is one claimed outbox row.
type row struct {
	id         int64
	exchange   string
	key        string
	msg        driver.Outbound
	createdAt  time.Time
	attempts   int
	outcome    rowOutcome
	lastError  string
	retiredNow bool
}

// rowOutcome is what became of a row's publish.
type rowOutcome uint8

const (
	unsent    rowOutcome = iota // not published (after an outage in the batch)
	confirmed                   // the broker confirmed it
	refused                     // unroutable or nacked: costs an attempt
	lost                        // an outage: the publish's fate is unknown
)

// errOutage marks a sweep that hit an outage of the broker.
var errOutage = errors.New("acemq: outbox: the broker did not confirm a publish")

// sweep claims up to a batch of committed rows in one transaction, publishes
// them, records their outcome and commits. It returns how many rows it
// claimed; an error means an outage (of the database, or of the broker once
// what was confirmed before it is recorded).
func (r *Relay) sweep(ctx context.Context) (int, error) {
	tx, err := r.store.db.BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return 0, fmt.Errorf("acemq: outbox: cannot begin a transaction: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	rows, err := r.claim(ctx, tx)
	if err != nil || len(rows) == 0 {
		return 0, err
	}
	outageErr := r.publish(ctx, rows)
	if r.beforeMark != nil {
		if err := r.beforeMark(ctx, len(rows)); err != nil {
			return 0, err
		}
	}
	if err := r.mark(ctx, tx, rows); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("acemq: outbox: cannot record what was published: %w", err)
	}
	r.count(rows)
	return len(rows), outageErr
}

// claimSQL selects the oldest committed rows, in commit order, locking them.
func claimSQL(t tableName) string {
	return `SELECT id, message_id, exchange, routing_key, body, content_type, headers, reply_to,
    correlation_id, expiration, persistent, mandatory, created_at, attempts
FROM ` + t.quoted + `
WHERE published_at IS NULL AND retired_at IS NULL
ORDER BY seq, id
LIMIT $1
FOR UPDATE SKIP LOCKED`
}

// claim reads and locks the next batch.
func (r *Relay) claim(ctx context.Context, tx *sql.Tx) ([]*row, error) {
	rs, err := tx.QueryContext(ctx, claimSQL(r.store.table), r.cfg.batch)
	if err != nil {
		return nil, fmt.Errorf("acemq: outbox: cannot claim rows of %s: %w", r.store.table.raw, err)
	}
	defer rs.Close()
	var rows []*row
	for rs.Next() {
		w, err := scanRow(rs)
		if err != nil {
			return nil, err
		}
		rows = append(rows, w)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("acemq: outbox: cannot claim rows of %s: %w", r.store.table.raw, err)
	}
	return rows, nil
}

// scanRow reads one claimed row.
func scanRow(rs *sql.Rows) (*row, error) {
	w := &row{}
	var headers []byte
	m := &w.msg
	if err := rs.Scan(&w.id, &m.MessageID, &w.exchange, &w.key, &m.Body, &m.ContentType, &headers, &m.ReplyTo,
		&m.CorrelationID, &m.Expiration, &m.Persistent, &m.Mandatory, &w.createdAt, &w.attempts); err != nil {
		return nil, fmt.Errorf("acemq: outbox: cannot read a row: %w", err)
	}
	h, err := decodeHeaders(headers)
	if err != nil {
		w.outcome, w.lastError = refused, err.Error()
		return w, nil
	}
	m.Headers = h
	return w, nil
}

// publish sends the rows in order, pipelined when the transport can, and
// waits for their confirms. After the first outage the rest stay unsent or
// count as lost, so one relay never publishes a row before one it
// committed earlier (they are republished, in order, by the next sweep).
func (r *Relay) publish(ctx context.Context, rows []*row) error {
	t := r.conn.Transport()
	ap, pipelined := t.(driver.AsyncPublisher)
	pending := make([]driver.Confirmation, len(rows))
	for i, w := range rows {
		if w.outcome == refused { // unreadable headers
			continue
		}
		if !pipelined {
			res, err := t.Publish(ctx, w.exchange, w.key, w.msg)
			pending[i] = driver.ConfirmationOf(res, err)
			continue
		}
		c, err := ap.PublishAsync(ctx, w.exchange, w.key, w.msg)
		if err != nil {
			c = driver.ConfirmationOf(acemq.PublishResult{}, err)
		}
		pending[i] = c
		if err != nil && !isRefusal(err) {
			break
		}
	}
	return settle(ctx, rows, pending)
}

// settle waits for each confirmation in order and records the outcomes; it
// returns errOutage (joined with the first lost publish's error) when one
// was lost.
func settle(ctx context.Context, rows []*row, pending []driver.Confirmation) error {
	var outage error
	for i, w := range rows {
		if pending[i] == nil {
			continue
		}
		if outage != nil {
			w.outcome = lost
			continue
		}
		res, err := pending[i].Wait(ctx)
		switch {
		case err == nil && w.msg.Mandatory && !res.Routed:
			w.outcome, w.lastError = refused, "reached no queue: "+reasonOr(res.ReturnReason, "312 NO_ROUTE")
		case err == nil:
			w.outcome = confirmed
		case isRefusal(err):
			w.outcome, w.lastError = refused, err.Error()
		default:
			w.outcome, outage = lost, errors.Join(errOutage, err)
		}
	}
	return outage
}

// isRefusal reports whether err is the broker's refusal of the message, as
// opposed to an outage.
func isRefusal(err error) bool {
	return errors.Is(err, acemq.ErrBrokerRefused) || errors.Is(err, acemq.ErrUnroutable)
}

func reasonOr(reason, def string) string {
	if reason == "" {
		return def
	}
	return reason
}

// mark records the outcomes: confirmed rows deleted (or, with Retain, given
// published_at), refused ones charged an attempt and retired at MaxAttempts.
func (r *Relay) mark(ctx context.Context, tx *sql.Tx, rows []*row) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), markTimeout)
	defer cancel()
	var done []string
	for _, w := range rows {
		switch w.outcome {
		case confirmed:
			done = append(done, strconv.FormatInt(w.id, 10))
		case refused:
			if err := r.charge(ctx, tx, w); err != nil {
				return err
			}
		}
	}
	if len(done) == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, r.doneSQL(), "{"+strings.Join(done, ",")+"}"); err != nil {
		return fmt.Errorf("acemq: outbox: cannot mark rows of %s published: %w", r.store.table.raw, err)
	}
	return nil
}

// doneSQL removes, or with Retain marks, the confirmed rows.
func (r *Relay) doneSQL() string {
	if r.cfg.retain > 0 {
		return `UPDATE ` + r.store.table.quoted + ` SET published_at = now() WHERE id = ANY($1::bigint[])`
	}
	return `DELETE FROM ` + r.store.table.quoted + ` WHERE id = ANY($1::bigint[])`
}

// charge records one refused publish of w, retiring it at MaxAttempts.
func (r *Relay) charge(ctx context.Context, tx *sql.Tx, w *row) error {
	err := tx.QueryRowContext(ctx, `UPDATE `+r.store.table.quoted+`
SET attempts = attempts + 1, last_error = $2,
    retired_at = CASE WHEN attempts + 1 >= $3 THEN now() END
WHERE id = $1
RETURNING retired_at IS NOT NULL`, w.id, w.lastError, r.cfg.maxAttempts).Scan(&w.retiredNow)
	if err != nil {
		return fmt.Errorf("acemq: outbox: cannot record a refused publish of row %d: %w", w.id, err)
	}
	return nil
}

// prune deletes rows published longer than Retain ago.
func (r *Relay) prune(ctx context.Context) {
	_, err := r.store.db.ExecContext(ctx, `DELETE FROM `+r.store.table.quoted+`
WHERE published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1)`, r.cfg.retain.Seconds())
	if err != nil && ctx.Err() == nil {
		r.conn.Logger().Warn("acemq: outbox relay cannot delete published rows", "table", r.store.table.raw, "error", err)
	}
}
