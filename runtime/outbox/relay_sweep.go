package outbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// markTimeout bounds the statements that record a batch's outcome, which
// run even when Run's context has ended (what was confirmed is recorded).
const markTimeout = 10 * time.Second

// row is one claimed outbox row.
type row struct {
	id         int64
	exchange   string
	key        string
	msg        acemq.Outbound
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
// them, records their outcome and commits. It reports whether more rows may
// be waiting (the batch was full, by rows or by bytes); an error means an
// outage (of the database, or of the broker once what was confirmed before
// it is recorded).
func (r *Relay) sweep(ctx context.Context) (bool, error) {
	tx, err := r.store.db.BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return false, fmt.Errorf("acemq: outbox: cannot begin a transaction: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	rows, more, err := r.claim(ctx, tx)
	if err != nil || len(rows) == 0 {
		return false, err
	}
	stop := r.warnIfSlow(len(rows))
	outageErr := r.publishAll(ctx, rows)
	stop()
	if r.beforeMark != nil {
		if err := r.beforeMark(ctx, len(rows)); err != nil {
			return false, err
		}
	}
	if err := r.mark(ctx, tx, rows); err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("acemq: outbox: cannot record what was published: %w", err)
	}
	r.count(rows)
	return more, outageErr
}

// claimSQL locks the oldest committed rows, in commit order, up to $1 of
// them, and reads those whose bodies and headers add up to at most $2 bytes
// (the first one whatever its size), with the number locked. Sizes are
// taken without reading the values (octet_length and pg_column_size do not
// detoast), so only the rows returned are loaded.
func claimSQL(t tableName) string {
	return `WITH locked AS MATERIALIZED (
    SELECT id, seq, octet_length(body) + pg_column_size(headers) AS size
    FROM ` + t.quoted + `
    WHERE published_at IS NULL AND retired_at IS NULL
    ORDER BY seq, id
    LIMIT $1
    FOR UPDATE SKIP LOCKED
), sized AS (
    SELECT id, seq, sum(size) OVER w AS upto, row_number() OVER w AS n, count(*) OVER () AS locked
    FROM locked WINDOW w AS (ORDER BY seq, id)
)
SELECT sized.locked, t.id, t.message_id, t.exchange, t.routing_key, t.body, t.content_type, t.headers,
    t.reply_to, t.correlation_id, t.expiration, t.persistent, t.mandatory, t.created_at, t.attempts
FROM sized JOIN ` + t.quoted + ` t ON t.id = sized.id
WHERE sized.n = 1 OR sized.upto <= $2
ORDER BY sized.seq, sized.id`
}

// claim reads and locks the next batch, bounded by Batch rows and
// BatchBytes bytes; more reports whether a bound cut it short.
func (r *Relay) claim(ctx context.Context, tx *sql.Tx) (rows []*row, more bool, err error) {
	rs, err := tx.QueryContext(ctx, claimSQL(r.store.table), r.cfg.batch, r.cfg.batchBytes)
	if err != nil {
		return nil, false, fmt.Errorf("acemq: outbox: cannot claim rows of %s: %w", r.store.table.raw, err)
	}
	defer rs.Close()
	var locked int
	for rs.Next() {
		w, err := scanRow(rs, &locked)
		if err != nil {
			return nil, false, err
		}
		rows = append(rows, w)
	}
	if err := rs.Err(); err != nil {
		return nil, false, fmt.Errorf("acemq: outbox: cannot claim rows of %s: %w", r.store.table.raw, err)
	}
	return rows, locked == r.cfg.batch || len(rows) < locked, nil
}

// scanRow reads one claimed row.
func scanRow(rs *sql.Rows, locked *int) (*row, error) {
	w := &row{}
	var headers []byte
	m := &w.msg
	if err := rs.Scan(locked, &w.id, &m.MessageID, &w.exchange, &w.key, &m.Body, &m.ContentType, &headers, &m.ReplyTo,
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

// publishAll publishes the rows, then again, in order, those lost in a
// round in which the broker refused a row: a refusal may close the channel
// (RabbitMQ's 404 or 406), losing the publishes written behind it, and those
// rows must not wait for the refused one to retire. Each further round
// publishes fewer rows (a refused row is not sent again), so it ends; a
// round without a refusal that lost a row is an outage.
func (r *Relay) publishAll(ctx context.Context, rows []*row) error {
	todo := rows
	for {
		before := countRefused(todo)
		err := r.publish(ctx, todo)
		if err == nil || countRefused(todo) == before || ctx.Err() != nil {
			return err
		}
		todo = unfinished(todo)
		if len(todo) == 0 {
			return nil
		}
	}
}

// warnIfSlow logs, every slowAfter until the returned func is called, that
// a batch of n rows is still waiting for the broker.
func (r *Relay) warnIfSlow(n int) (stop func()) {
	start := time.Now()
	var t *time.Timer
	var mu sync.Mutex
	warn := func() {
		r.conn.Logger().Warn("acemq: outbox relay: the broker has not confirmed a batch yet; still waiting",
			"table", r.store.table.raw, "rows", n, "waited", time.Since(start).Round(time.Second))
		mu.Lock()
		defer mu.Unlock()
		if t != nil {
			t.Reset(r.slowAfter)
		}
	}
	mu.Lock()
	t = time.AfterFunc(r.slowAfter, warn)
	mu.Unlock()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		t.Stop()
		t = nil
	}
}

// countRefused counts the rows refused so far.
func countRefused(rows []*row) int {
	n := 0
	for _, w := range rows {
		if w.outcome == refused {
			n++
		}
	}
	return n
}

// unfinished returns the rows neither confirmed nor refused, made unsent.
func unfinished(rows []*row) []*row {
	var out []*row
	for _, w := range rows {
		if w.outcome == lost || w.outcome == unsent {
			w.outcome = unsent
			out = append(out, w)
		}
	}
	return out
}

// publish sends the rows in order, pipelined when the transport can, and
// waits for their confirms. After the first outage the rest stay unsent or
// count as lost, so one relay never publishes a row before one it
// committed earlier (they are republished, in order, by the next sweep).
func (r *Relay) publish(ctx context.Context, rows []*row) error {
	pending := make([]acemq.Confirmation, len(rows))
	for i, w := range rows {
		if w.outcome == refused { // unreadable headers
			continue
		}
		c, err := r.send(ctx, w)
		pending[i] = c
		if err != nil && !isRefusal(err) {
			break
		}
	}
	return settle(ctx, rows, pending)
}

// send writes w through the transport's PublishAsync when it has one, else
// through Publish (which waits for the confirm). err is the publish's error
// when it is known at once; the Confirmation then carries it too.
func (r *Relay) send(ctx context.Context, w *row) (acemq.Confirmation, error) {
	t := r.conn.Transport()
	if ap, ok := t.(acemq.AsyncPublisher); ok {
		c, err := ap.PublishAsync(ctx, w.exchange, w.key, w.msg)
		if err != nil {
			return acemq.ConfirmationOf(acemq.PublishResult{}, err), err
		}
		return c, nil
	}
	res, err := t.Publish(ctx, w.exchange, w.key, w.msg)
	return acemq.ConfirmationOf(res, err), err
}

// settle waits for each confirmation in order and records the outcomes; it
// returns errOutage (joined with the first lost publish's error) when one
// was lost.
func settle(ctx context.Context, rows []*row, pending []acemq.Confirmation) error {
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
