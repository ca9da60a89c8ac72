package acemq

import (
	"context"
	"fmt"
	"reflect"
	"time"
)

// Publisher sends messages of type T to one exchange with one routing key.
// It holds configuration only: safe for concurrent use, nothing to close.
type Publisher[T any] struct {
	conn       *Conn
	exchange   string
	key        string
	codec      Codec
	persistent bool
	mandatory  bool
	envOpts    []EnvelopeOption
	required   []string
	err        error
}

// NewPublisher returns a publisher of T to exchange ("" is the default
// exchange, which routes to the queue named routingKey) with routingKey. By
// default it encodes with the connection's codec, publishes persistent and
// not mandatory.
func NewPublisher[T any](conn *Conn, exchange, routingKey string, opts ...PublisherOption[T]) *Publisher[T] {
	p := &Publisher[T]{conn: conn, exchange: exchange, key: routingKey, codec: conn.Codec(), persistent: true}
	for _, opt := range opts {
		if opt != nil {
			opt(p)
		}
	}
	return p
}

// Send publishes payload with a new envelope (Type = the routing key, the
// connection's origin, then opts) and waits for the broker's confirm.
func (p *Publisher[T]) Send(ctx context.Context, payload T, opts ...EnvelopeOption) error {
	_, err := p.SendResult(ctx, payload, opts...)
	return err
}

// SendResult is Send that also returns what the broker said.
func (p *Publisher[T]) SendResult(ctx context.Context, payload T, opts ...EnvelopeOption) (PublishResult, error) {
	env, err := p.newEnvelope(opts)
	if err != nil {
		return PublishResult{}, err
	}
	return p.publish(ctx, payload, env)
}

// SendEnvelope publishes payload with env as given; its empty fields take
// the defaults a new envelope would have.
func (p *Publisher[T]) SendEnvelope(ctx context.Context, payload T, env Envelope) error {
	_, err := p.publish(ctx, payload, p.completeEnvelope(env))
	return err
}

// newEnvelope builds the envelope of a Send.
func (p *Publisher[T]) newEnvelope(opts []EnvelopeOption) (Envelope, error) {
	all := make([]EnvelopeOption, 0, 1+len(p.envOpts)+len(opts))
	all = append(all, Origin(p.conn.origin()))
	all = append(all, p.envOpts...)
	return NewEnvelope(p.key, append(all, opts...)...)
}

// completeEnvelope fills the empty fields of a caller's envelope.
func (p *Publisher[T]) completeEnvelope(env Envelope) Envelope {
	def, _ := NewEnvelope(p.key, Origin(p.conn.origin()))
	fill(&env.ID, def.ID)
	fill(&env.Type, def.Type)
	fill(&env.CorrelationID, env.ID)
	fill(&env.Origin, def.Origin)
	fill(&env.Version, 1)
	fill(&env.Attempt, 1)
	fill(&env.FirstSeen, def.FirstSeen)
	if env.Headers == nil {
		env.Headers = map[string]any{}
	}
	return env
}

// fill sets *dst to def when *dst is the zero value.
func fill[V comparable](dst *V, def V) {
	var zero V
	if *dst == zero {
		*dst = def
	}
}

// publish runs the chain, encodes, publishes, then runs the outcome hooks.
func (p *Publisher[T]) publish(ctx context.Context, payload T, env Envelope) (PublishResult, error) {
	pc := &PublishContext{Exchange: p.exchange, RoutingKey: p.key, Envelope: &env, Payload: payload}
	res, err := p.send(ctx, pc)
	p.conn.observePublished(pc.Exchange, pc.RoutingKey, res, err)
	out := PublishOutcome{Result: res, Err: err, Exchange: pc.Exchange, RoutingKey: pc.RoutingKey}
	if pc.Envelope != nil {
		out.Envelope = *pc.Envelope
	}
	p.conn.runPublishHooks(ctx, pc, out)
	return res, err
}

// send is the publish path after the envelope: interceptors, checks, codec,
// transport, confirm.
func (p *Publisher[T]) send(ctx context.Context, pc *PublishContext) (PublishResult, error) {
	if p.err != nil {
		return PublishResult{}, p.err
	}
	if p.conn.isClosed() {
		return PublishResult{}, ErrClosed
	}
	if err := p.conn.runPublishChain(ctx, pc); err != nil {
		return PublishResult{}, err
	}
	payload, err := p.checked(pc)
	if err != nil {
		return PublishResult{}, err
	}
	body, err := p.codec.Encode(payload)
	if err != nil {
		return PublishResult{}, wrapf(err, "acemq: cannot encode a %T for %q", payload, pc.RoutingKey)
	}
	return p.transmit(ctx, pc, body)
}

// checked returns the payload once the context passes every check: no
// reserved header, the publisher's type, an envelope, the required headers.
func (p *Publisher[T]) checked(pc *PublishContext) (T, error) {
	var zero T
	if pc.err != nil {
		return zero, pc.err
	}
	if pc.Envelope == nil {
		return zero, fmt.Errorf("acemq: a publish interceptor removed the envelope of a %q message", pc.RoutingKey)
	}
	payload, ok := pc.Payload.(T)
	if !ok {
		return zero, fmt.Errorf("acemq: a publish interceptor replaced the %s payload with a %T; a Publisher[%s] sends only %s",
			typeName[T](), pc.Payload, typeName[T](), typeName[T]())
	}
	return payload, p.checkHeaders(pc)
}

// checkHeaders refuses reserved application headers and missing required ones.
func (p *Publisher[T]) checkHeaders(pc *PublishContext) error {
	for name := range pc.Envelope.Headers {
		if isReserved(name) {
			return ReservedHeaderError(name)
		}
	}
	for _, name := range p.required {
		if _, ok := pc.Envelope.Headers[name]; !ok {
			return fmt.Errorf("acemq: a %q message requires the header %q", pc.RoutingKey, name)
		}
	}
	return nil
}

func typeName[T any]() string { return reflect.TypeFor[T]().String() }

// transmit hands the encoded message to the transport and interprets the result.
func (p *Publisher[T]) transmit(ctx context.Context, pc *PublishContext, body []byte) (PublishResult, error) {
	env, start := pc.Envelope, time.Now()
	out := Outbound{
		Body: body, ContentType: p.codec.ContentType(), MessageID: env.ID,
		Headers: env.ToWire(), ReplyTo: env.ReplyTo, Persistent: p.persistent, Mandatory: p.mandatory,
	}
	res, err := p.conn.transport.Publish(ctx, pc.Exchange, pc.RoutingKey, out)
	err = p.interpret(pc, res, err)
	p.conn.observeTransmitted(pc.Exchange, pc.RoutingKey, res, err, start)
	return res, err
}

// interpret turns the transport's answer into the publisher's error.
func (p *Publisher[T]) interpret(pc *PublishContext, res PublishResult, err error) error {
	id := pc.Envelope.ID
	if err != nil {
		return &PublishFailedError{MessageID: id, Exchange: pc.Exchange, RoutingKey: pc.RoutingKey, Err: err}
	}
	if p.mandatory && !res.Routed {
		return &PublishFailedError{MessageID: id, Exchange: pc.Exchange, RoutingKey: pc.RoutingKey,
			Unroutable: true, Err: returnReason(res.ReturnReason)}
	}
	return nil
}

// returnReason is the broker's reason for returning a message.
type returnReason string

// Error returns the broker's reason, 312 NO_ROUTE when it gave none.
func (r returnReason) Error() string {
	if r == "" {
		return "312 NO_ROUTE"
	}
	return string(r)
}
