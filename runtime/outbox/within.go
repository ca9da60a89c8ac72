package outbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// ErrNotABroker is the error of declaring, binding or consuming on a
// connection from Within.
var ErrNotABroker = errors.New("acemq: this connection publishes into a database transaction (outbox.Within); declare and consume on the connection it came from")

// Within returns a connection that publishes into tx: each publish — by a
// generated publisher or an acemq.NewPublisher made on it — runs exactly as
// on conn (conn's publish interceptors, codec with its registry framing or
// encryption, required and typed headers, envelope and origin) and then,
// instead of reaching the broker, inserts the final wire message into
// store's table within tx: exchange, routing key, body, content type,
// headers, message id, reply-to, correlation id, expiration, persistent and
// mandatory. The row is committed or rolled back with tx, and a Relay
// publishes it once it is committed. A publish is reported as published,
// not confirmed (the relay confirms it later); a mandatory message is not
// known to be routable until then.
//
// Declaring, binding and consuming on the returned connection fail with
// ErrNotABroker. It needs no closing and is good only while tx is; make one
// per transaction. Safe for concurrent use as far as tx is.
func Within(conn *acemq.Conn, store *Store, tx *sql.Tx) *acemq.Conn {
	t := &txTransport{store: store, tx: tx}
	if conn == nil {
		c, _ := acemq.NewConn(failingTransport{errors.New("acemq: outbox.Within was given a nil connection")})
		return c
	}
	return conn.Through(t)
}

// txTransport is the transport of a Within connection: Publish inserts into
// the outbox table within tx, everything else is refused.
type txTransport struct {
	store *Store
	tx    *sql.Tx
}

// Publish inserts msg and notifies the relays (NOTIFY is delivered at commit,
// and once per transaction however many rows it wrote).
func (t *txTransport) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (acemq.PublishResult, error) {
	if err := t.usable(); err != nil {
		return acemq.PublishResult{}, err
	}
	headers, err := encodeHeaders(msg.Headers)
	if err != nil {
		return acemq.PublishResult{}, err
	}
	body := msg.Body
	if body == nil {
		body = []byte{}
	}
	_, err = t.tx.ExecContext(ctx, insertSQL(t.store.table),
		msg.MessageID, exchange, key, body, msg.ContentType, string(headers), msg.ReplyTo,
		msg.CorrelationID, msg.Expiration, msg.Persistent, msg.Mandatory, notifyChannel(t.store.table))
	if err != nil {
		return acemq.PublishResult{}, fmt.Errorf("acemq: outbox: cannot insert message %s into %s: %w", msg.MessageID, t.store.table.raw, err)
	}
	return acemq.PublishResult{MessageID: msg.MessageID, Routed: true}, nil
}

// usable reports why nothing can be inserted, if nothing can.
func (t *txTransport) usable() error {
	if err := t.store.usable(); err != nil {
		return err
	}
	if t.tx == nil {
		return errors.New("acemq: outbox.Within was given a nil transaction")
	}
	return nil
}

// insertSQL inserts one row and queues the NOTIFY in one round trip.
func insertSQL(t tableName) string {
	return `WITH row AS (INSERT INTO ` + t.quoted + ` (message_id, exchange, routing_key, body, content_type, headers,
    reply_to, correlation_id, expiration, persistent, mandatory)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id)
SELECT pg_notify($12, '') FROM row`
}

// notifyChannel is the LISTEN/NOTIFY channel of the table: its name as given.
func notifyChannel(t tableName) string { return t.raw }

func (*txTransport) DeclareQueue(context.Context, string, driver.QueueSpec) error {
	return ErrNotABroker
}

func (*txTransport) DeclareExchange(context.Context, string, driver.ExchangeSpec) error {
	return ErrNotABroker
}

func (*txTransport) Bind(context.Context, string, string, string) error { return ErrNotABroker }

func (*txTransport) Consume(context.Context, string, driver.ConsumeSpec, func(driver.Delivery)) (driver.Subscription, error) {
	return nil, ErrNotABroker
}

// Close does nothing: the transaction is the caller's.
func (*txTransport) Close() error { return nil }

// failingTransport fails every operation with err.
type failingTransport struct{ err error }

func (f failingTransport) Publish(context.Context, string, string, driver.Outbound) (acemq.PublishResult, error) {
	return acemq.PublishResult{}, f.err
}
func (f failingTransport) DeclareQueue(context.Context, string, driver.QueueSpec) error { return f.err }
func (f failingTransport) DeclareExchange(context.Context, string, driver.ExchangeSpec) error {
	return f.err
}
func (f failingTransport) Bind(context.Context, string, string, string) error { return f.err }
func (f failingTransport) Consume(context.Context, string, driver.ConsumeSpec, func(driver.Delivery)) (driver.Subscription, error) {
	return nil, f.err
}
func (failingTransport) Close() error { return nil }
