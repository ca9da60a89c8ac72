package main

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// rawRelay drains the same rows by hand with amqp091-go: in batches of 500
// (the relay's default), one transaction each, SELECT ... ORDER BY seq FOR
// UPDATE SKIP LOCKED, every row published (its typed headers decoded into
// an amqp.Table) and then every confirm awaited, then one DELETE of the
// batch and COMMIT. No NOTIFY, no retries, no attempts, no metrics.
func rawRelay(ctx context.Context, e *env, n int) (trial, error) {
	conn, store, q, teardown, err := outboxSetup(ctx, e, "raw-relay", n)
	if err != nil {
		return trial{}, err
	}
	_ = conn // the fill's connection; raw publishes on its own
	db, _ := e.database()
	rc, err := amqp.Dial(e.url)
	if err != nil {
		teardown()
		return trial{}, err
	}
	run := func(ctx context.Context) error {
		ch, err := rc.Channel()
		if err != nil {
			return err
		}
		defer ch.Close()
		if err := ch.Confirm(false); err != nil {
			return err
		}
		for moved := 0; moved < n; {
			k, err := rawRelayBatch(ctx, db, ch, store.Name(), 500)
			if err != nil {
				return err
			}
			if k == 0 {
				return fmt.Errorf("no rows left after %d of %d", moved, n)
			}
			moved += k
		}
		return nil
	}
	verify := func(ctx context.Context) error { return verifyDrained(ctx, e, store.Name(), q, n) }
	return trial{run: run, verify: verify, teardown: func() { _ = rc.Close(); teardown() }}, nil
}

// rawRelayBatch moves up to limit rows of table to the broker.
func rawRelayBatch(ctx context.Context, db *sql.DB, ch *amqp.Channel, table string, limit int) (int, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit a no-op
	rows, err := tx.QueryContext(ctx, `SELECT id, message_id, exchange, routing_key, body, content_type, headers,
    correlation_id, persistent, mandatory
FROM "`+table+`" WHERE published_at IS NULL AND retired_at IS NULL
ORDER BY seq, id LIMIT $1 FOR UPDATE SKIP LOCKED`, limit)
	if err != nil {
		return 0, err
	}
	ids, dcs, err := rawPublishRows(ctx, ch, rows)
	if err != nil {
		return 0, err
	}
	for _, dc := range dcs {
		if !dc.Wait() {
			return 0, errNack
		}
	}
	if len(ids) == 0 {
		return 0, nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM "`+table+`" WHERE id = ANY($1::bigint[])`, "{"+strings.Join(ids, ",")+"}"); err != nil {
		return 0, err
	}
	return len(ids), tx.Commit()
}

// rawPublishRows publishes each row as it is read, not awaiting confirms.
func rawPublishRows(ctx context.Context, ch *amqp.Channel, rows *sql.Rows) ([]string, []*amqp.DeferredConfirmation, error) {
	defer rows.Close()
	var ids []string
	var dcs []*amqp.DeferredConfirmation
	for rows.Next() {
		var id int64
		var exchange, key string
		var headers []byte
		var persistent, mandatory bool
		var msg amqp.Publishing
		if err := rows.Scan(&id, &msg.MessageId, &exchange, &key, &msg.Body, &msg.ContentType, &headers,
			&msg.CorrelationId, &persistent, &mandatory); err != nil {
			return nil, nil, err
		}
		h, err := rawHeaders(headers)
		if err != nil {
			return nil, nil, err
		}
		msg.Headers = h
		if persistent {
			msg.DeliveryMode = amqp.Persistent
		}
		dc, err := ch.PublishWithDeferredConfirmWithContext(ctx, exchange, key, mandatory, false, msg)
		if err != nil {
			return nil, nil, err
		}
		ids, dcs = append(ids, strconv.FormatInt(id, 10)), append(dcs, dc)
	}
	return ids, dcs, rows.Err()
}

// rawHeaders decodes the outbox's typed headers column ({"name": {"string":
// "v"}, ...}) for the scalar types the family's headers use.
func rawHeaders(raw []byte) (amqp.Table, error) {
	var typed map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &typed); err != nil {
		return nil, err
	}
	out := make(amqp.Table, len(typed))
	for name, tv := range typed {
		for kind, v := range tv {
			x, err := rawScalar(kind, v)
			if err != nil {
				return nil, fmt.Errorf("header %q: %w", name, err)
			}
			out[name] = x
		}
	}
	return out, nil
}

func rawScalar(kind string, v json.RawMessage) (any, error) {
	switch kind {
	case "string":
		var s string
		err := json.Unmarshal(v, &s)
		return s, err
	case "long", "int":
		var i int64
		err := json.Unmarshal(v, &i)
		return i, err
	case "bool":
		var b bool
		err := json.Unmarshal(v, &b)
		return b, err
	case "double":
		var f float64
		err := json.Unmarshal(v, &f)
		return f, err
	case "bytes":
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, err
		}
		return base64.StdEncoding.DecodeString(s)
	case "time":
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, err
		}
		return time.Parse(time.RFC3339Nano, s)
	}
	return nil, fmt.Errorf("type %q not handled by the raw relay", kind)
}
