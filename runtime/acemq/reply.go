package acemq

import (
	"context"
	"errors"
	"maps"
)

// ReplyToHeader is the family's application header naming the queue a reply
// goes to (FAMILY-SPEC §2.3); requesters write it beside the AMQP reply-to
// property, and responders read it first.
const ReplyToHeader = "acemq-reply-to"

// ReplyTransport is an optional Transport seam for request/reply: a
// transport that implements it gives each requester a private reply address
// without declaring a queue (RabbitMQ's direct reply-to,
// amq.rabbitmq.reply-to; memory:// has the equivalent). A requester whose
// transport lacks it falls back to an exclusive, auto-delete reply queue.
type ReplyTransport interface {
	// OpenReplies starts receiving replies: deliver is called, from one
	// goroutine, with every message sent to the channel's Address, already
	// settled (do not Ack or Nack it). Close the channel to stop.
	OpenReplies(ctx context.Context, deliver func(Delivery)) (ReplyChannel, error)
}

// ReplyChannel is a running reply subscription and the way requests must be
// published so that their replies reach it (RabbitMQ requires a direct
// reply-to request to be published on the channel that consumes the
// replies). Implementations must be safe for concurrent use.
type ReplyChannel interface {
	// Address is where replies go now. It may change when the transport
	// recovers a lost connection; Publish stamps the address current at the
	// moment it sends.
	Address() string
	// Publish sends msg like Transport.Publish, with msg.ReplyTo set to the
	// channel's address and, when msg carries the ReplyToHeader header, that
	// header too. msg.Headers is not modified.
	Publish(ctx context.Context, exchange, key string, msg Outbound) (PublishResult, error)
	// Close stops the replies. Idempotent.
	Close() error
}

// StampReplyAddress returns msg addressed to address: ReplyTo set and, when
// msg carries the ReplyToHeader header, that header replaced in a copy of
// the headers. It is what a ReplyChannel's Publish does first.
func StampReplyAddress(msg Outbound, address string) Outbound {
	msg.ReplyTo = address
	if _, ok := msg.Headers[ReplyToHeader]; ok {
		msg.Headers = maps.Clone(msg.Headers)
		msg.Headers[ReplyToHeader] = address
	}
	return msg
}

// PublishFunc is where a publish ends: a Transport's Publish or a
// ReplyChannel's.
type PublishFunc func(ctx context.Context, exchange, key string, msg Outbound) (PublishResult, error)

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
	return &q
}

// viaTransport is the transport of a Through publisher: Publish goes to
// send, everything else is refused.
type viaTransport struct {
	conn *Conn
	send PublishFunc
}

var errViaOnlyPublishes = errors.New("acemq: a Through publisher's transport only publishes")

func (v viaTransport) Publish(ctx context.Context, exchange, key string, msg Outbound) (PublishResult, error) {
	if v.conn.isClosed() {
		return PublishResult{}, ErrClosed
	}
	return v.send(ctx, exchange, key, msg)
}

func (viaTransport) DeclareQueue(context.Context, string, QueueSpec) error {
	return errViaOnlyPublishes
}

func (viaTransport) DeclareExchange(context.Context, string, ExchangeSpec) error {
	return errViaOnlyPublishes
}

func (viaTransport) Bind(context.Context, string, string, string) error { return errViaOnlyPublishes }

func (viaTransport) Consume(context.Context, string, ConsumeSpec, func(Delivery)) (Subscription, error) {
	return nil, errViaOnlyPublishes
}

func (viaTransport) Close() error { return nil }

// adoptReplyProperties fills what the envelope headers lack from the AMQP
// properties a requester outside the family may use alone: the reply-to
// queue, and the correlation-id when x-acemq-correlation is absent.
func (e *Envelope) adoptReplyProperties(d Delivery) {
	if e.ReplyTo == "" {
		e.ReplyTo = d.ReplyTo
	}
	if d.CorrelationID != "" && wireString(d.Headers, HeaderCorrelation) == "" {
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
