package acemq

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
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
	headers    headerRules
	err        error
	// boxes are the routing key and origin boxed once for the wire table.
	boxes wireBoxes
	// recycles: Send reuses its messages (see recycles).
	recycles bool
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
	p.boxes, p.recycles = newWireBoxes(routingKey, conn.origin()), recycles(conn)
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
	o, err := p.begin(ctx, payload, opts)
	if err != nil {
		return PublishResult{}, err
	}
	defer p.release(o)
	if o.err == nil {
		p.transmit(ctx, o)
	}
	p.finish(ctx, o)
	return o.res, o.err
}

// begin builds a new message's envelope (initEnvelope) and prepares it
// (prepareInto), in a recycled message when p recycles: what every path of
// a new message starts with. An envelope option's error is returned, with
// nothing else done; a failure to prepare is left in the message's err.
func (p *Publisher[T]) begin(ctx context.Context, payload T, opts []EnvelopeOption) (*outgoing, error) {
	o := p.acquire()
	if err := p.initEnvelope(&o.env, o.headers, opts); err != nil {
		p.release(o)
		return nil, err
	}
	p.prepareInto(ctx, payload, o)
	return o, nil
}

// SendEnvelope publishes payload with env as given; its empty fields take
// the defaults a new envelope would have.
func (p *Publisher[T]) SendEnvelope(ctx context.Context, payload T, env Envelope) error {
	_, err := p.publish(ctx, payload, p.completeEnvelope(env))
	return err
}

// initEnvelope builds the envelope of a Send into env, with headers (empty)
// as its Headers: what NewEnvelope(p.key, Origin(origin), p.envOpts...,
// opts...) builds, without the option slice and closure that call would
// allocate.
func (p *Publisher[T]) initEnvelope(env *Envelope, headers map[string]any, opts []EnvelopeOption) error {
	*env = Envelope{
		ID: NewUUID(), Type: p.key, Version: 1, Attempt: 1, FirstSeen: nowMillis(),
		Origin: p.conn.origin(), Headers: headers,
	}
	if err := env.apply(p.envOpts); err != nil {
		return err
	}
	if err := env.apply(opts); err != nil {
		return err
	}
	fill(&env.CorrelationID, env.ID)
	return nil
}

// completeEnvelope fills the empty fields of a caller's envelope.
func (p *Publisher[T]) completeEnvelope(env Envelope) Envelope {
	if env.ID == "" {
		env.ID = NewUUID()
	}
	fill(&env.Type, p.key)
	fill(&env.CorrelationID, env.ID)
	fill(&env.Origin, p.conn.origin())
	fill(&env.Version, 1)
	fill(&env.Attempt, 1)
	fill(&env.FirstSeen, nowMillis())
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
	o := &outgoing{env: env}
	p.prepareInto(ctx, payload, o)
	if o.err == nil {
		p.transmit(ctx, o)
	}
	p.finish(ctx, o)
	return o.res, o.err
}

// outgoing is one message on its way through a publisher, allocated once:
// the interceptors' context, the envelope it points to, what the transport
// is given and, at the end, what became of it.
type outgoing struct {
	pc    PublishContext
	env   Envelope
	out   driver.Outbound
	res   PublishResult
	err   error
	hooks [hookRoom]func(context.Context, PublishOutcome) // pc.hooks' first backing array
	// headers and wire are the Headers map and the wire table of a
	// recycled message (outgoing_pool.go); nil otherwise.
	headers, wire map[string]any
}

// prepareInto runs the publish path of o, whose envelope is built, up to
// the transport: checks, interceptors, codec, headers. A failure is left in
// o.err, with nothing published.
func (p *Publisher[T]) prepareInto(ctx context.Context, payload T, o *outgoing) {
	o.pc = PublishContext{Exchange: p.exchange, RoutingKey: p.key, Envelope: &o.env, Payload: payload, hooks: o.hooks[:0]}
	o.err = p.encode(ctx, o)
}

// encode is prepare's work: interceptors, checks, codec, then the Outbound.
func (p *Publisher[T]) encode(ctx context.Context, o *outgoing) error {
	if p.err != nil {
		return p.err
	}
	if p.conn.isClosed() {
		return ErrClosed
	}
	if err := p.conn.runPublishChain(ctx, &o.pc); err != nil {
		return err
	}
	if err := p.checked(&o.pc); err != nil {
		return err
	}
	payload := o.pc.Payload // boxed once, by prepareInto
	body, contentType, err := encodeWith(p.codec, payload)
	if _, ok := panicked(err); ok {
		return err
	}
	if err != nil {
		return wrapf(err, "acemq: cannot encode a %T for %q", payload, o.pc.RoutingKey)
	}
	o.out = p.outbound(o.pc.Envelope, body, contentType, o.wire)
	return nil
}

// outbound is the message the transport is given; its headers table is
// wire (empty) when not nil, else a new map.
func (p *Publisher[T]) outbound(env *Envelope, body []byte, contentType string, wire map[string]any) driver.Outbound {
	if wire == nil {
		wire = make(map[string]any, len(env.Headers)+env.wireFields())
	}
	env.putWire(wire, p.boxes)
	return driver.Outbound{
		Body: body, ContentType: contentType, MessageID: env.ID,
		Headers: wire, ReplyTo: env.ReplyTo, Persistent: p.persistent, Mandatory: p.mandatory,
	}
}

// finish counts the publish, whatever stopped it, and runs its outcome hooks.
func (p *Publisher[T]) finish(ctx context.Context, o *outgoing) {
	pc := &o.pc
	p.conn.observePublished(pc.Exchange, pc.RoutingKey, o.res, o.err)
	if len(pc.hooks) == 0 {
		return
	}
	out := PublishOutcome{Result: o.res, Err: o.err, Exchange: pc.Exchange, RoutingKey: pc.RoutingKey}
	if pc.Envelope != nil {
		out.Envelope = *pc.Envelope
	}
	p.conn.runPublishHooks(ctx, pc, out)
}

// checked reports whether the context passes every check: no reserved
// header, the publisher's type, an envelope, the required headers.
func (p *Publisher[T]) checked(pc *PublishContext) error {
	if pc.err != nil {
		return pc.err
	}
	if pc.Envelope == nil {
		return fmt.Errorf("acemq: a publish interceptor removed the envelope of a %q message", pc.RoutingKey)
	}
	if _, ok := pc.Payload.(T); !ok {
		return fmt.Errorf("acemq: a publish interceptor replaced the %s payload with a %T; a Publisher[%s] sends only %s",
			typeName[T](), pc.Payload, typeName[T](), typeName[T]())
	}
	return p.checkHeaders(pc)
}

// checkHeaders refuses reserved application headers, missing required ones
// and ones of another type than declared (header_rules.go).
func (p *Publisher[T]) checkHeaders(pc *PublishContext) error {
	for name := range pc.Envelope.Headers {
		if isReserved(name) {
			return ReservedHeaderError(name)
		}
	}
	return p.headers.publishError(pc.RoutingKey, pc.Envelope.Headers)
}

func typeName[T any]() string { return reflect.TypeFor[T]().String() }

// transmit hands the prepared message to the transport, waits for its
// confirm and interprets the result into o.
func (p *Publisher[T]) transmit(ctx context.Context, o *outgoing) {
	observed, start := p.conn.observing(), time.Time{}
	if observed {
		start = time.Now()
	}
	res, err := p.conn.transport.Publish(ctx, o.pc.Exchange, o.pc.RoutingKey, o.out)
	o.res, o.err = res, p.interpret(&o.pc, res, err)
	if observed {
		p.conn.observeTransmitted(o.pc.Exchange, o.pc.RoutingKey, o.res, o.err, start)
	}
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
