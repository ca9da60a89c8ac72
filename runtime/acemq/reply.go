package acemq

import (
	"context"
	"errors"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// PublishFunc is where a publish ends: a Transport's Publish or a
// ReplyChannel's.
type PublishFunc func(ctx context.Context, exchange, key string, msg driver.Outbound) (PublishResult, error)

// Through returns a copy of p whose messages take p's whole publish path
// (envelope, publish interceptors, codec, metrics, outcome hooks) but are
// handed to send instead of the connection's transport; send may adjust the
// Outbound (correlation-id, expiration) before passing it on. It is how
// request/reply publishes requests on a ReplyChannel. Once p's connection is
// closed, publishing fails with ErrClosed. Safe for concurrent use when send is.
func Through[T any](p *Publisher[T], send PublishFunc) *Publisher[T] {
	if send == nil {
		q := *p
		q.err = errors.New("acemq: Through was given a nil publish func")
		return &q
	}
	q := *p
	q.conn = newConn(viaTransport{conn: p.conn, send: send}, p.conn.cfg)
	q.recycles = recycles(q.conn) // send may keep what it is given
	return &q
}

// viaTransport is the transport of a Through publisher: Publish goes to
// send, everything else is refused.
type viaTransport struct {
	conn *Conn
	send PublishFunc
}

var errViaOnlyPublishes = errors.New("acemq: a Through publisher's transport only publishes")

func (v viaTransport) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (PublishResult, error) {
	if v.conn.isClosed() {
		return PublishResult{}, ErrClosed
	}
	return v.send(ctx, exchange, key, msg)
}

func (viaTransport) DeclareQueue(context.Context, string, driver.QueueSpec) error {
	return errViaOnlyPublishes
}

func (viaTransport) DeclareExchange(context.Context, string, driver.ExchangeSpec) error {
	return errViaOnlyPublishes
}

func (viaTransport) Bind(context.Context, string, string, string) error { return errViaOnlyPublishes }

func (viaTransport) Consume(context.Context, string, driver.ConsumeSpec, func(driver.Delivery)) (driver.Subscription, error) {
	return nil, errViaOnlyPublishes
}

func (viaTransport) Close() error { return nil }

// adoptReplyProperties fills what the envelope headers lack from the AMQP
// properties a requester outside the family may use alone: the reply-to
// queue, and the correlation-id when x-acemq-correlation is absent.
func (e *Envelope) adoptReplyProperties(d driver.Delivery) {
	if e.ReplyTo == "" {
		e.ReplyTo = d.ReplyTo
	}
	if d.CorrelationID != "" && wireString(d.Headers, semconv.HeaderCorrelation) == "" {
		e.CorrelationID = d.CorrelationID
	}
}

// ConsumeCodec returns the codec a consumer of conn given opts decodes with
// (ConsumeWith's, else the connection's), or the error an invalid option
// makes Consume fail with. A responder replies with it.
func ConsumeCodec(conn *Conn, opts ...ConsumeOption) (Codec, error) {
	cfg, err := buildConsumeConfig(conn, opts)
	if err != nil {
		return nil, err
	}
	return cfg.codec, nil
}

// SendTo publishes payload like p.SendResult, but to exchange with key
// instead of p's own: how a responder sends each reply to the address its
// request named. The envelope's Type defaults to key, as with any publisher.
func SendTo[T any](ctx context.Context, p *Publisher[T], exchange, key string, payload T, opts ...EnvelopeOption) (PublishResult, error) {
	q := *p
	q.exchange, q.key = exchange, key
	return q.SendResult(ctx, payload, opts...)
}
