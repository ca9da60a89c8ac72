package acemq

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/acemq/internal/memq"
)

// The memory transport: memory://NAME is a broker that lives in this process
// (package internal/memq, whose documentation lists what it emulates of
// RabbitMQ). Each distinct NAME is its own broker; every Connect to the same
// NAME reaches the same one, for the life of the process.
// memory://NAME?confirms=off behaves like a RabbitMQ connection without
// publisher confirms. This file adapts acemq's Transport to it: URL parsing,
// conversion between acemq's types and the broker's, and registration; the
// optional seams are in memory_seams.go.

func init() { driver.RegisterTransport("memory", dialMemory) }

// memoryBrokers holds every memory broker of the process by name.
var memoryBrokers = struct {
	sync.Mutex
	m map[string]*memq.Broker
}{m: map[string]*memq.Broker{}}

// memTransport is one connection to a memory broker.
type memTransport struct {
	c        *memq.Conn
	confirms bool
}

// dialMemory opens memory://NAME[?confirms=off].
func dialMemory(_ context.Context, rawURL string, _ driver.Extensions) (driver.Transport, error) {
	name, query, err := parseMemoryURL(rawURL)
	if err != nil {
		return nil, err
	}
	confirms := true
	switch query.Get("confirms") {
	case "", "on", "true":
	case "off", "false":
		confirms = false
	default:
		return nil, fmt.Errorf("memory: confirms must be on or off, got %q", query.Get("confirms"))
	}
	return &memTransport{c: memoryBroker(name).Connect(), confirms: confirms}, nil
}

// parseMemoryURL splits memory://NAME?QUERY.
func parseMemoryURL(rawURL string) (string, url.Values, error) {
	_, rest, _ := strings.Cut(rawURL, "://")
	name, rawQuery, _ := strings.Cut(rest, "?")
	query, err := url.ParseQuery(rawQuery)
	if err != nil {
		return "", nil, fmt.Errorf("memory: cannot read the query of %q: %w", rawURL, err)
	}
	return name, query, nil
}

// memoryBroker returns the broker called name, creating it on first use.
func memoryBroker(name string) *memq.Broker {
	memoryBrokers.Lock()
	defer memoryBrokers.Unlock()
	b, ok := memoryBrokers.m[name]
	if !ok {
		b = memq.New(name)
		memoryBrokers.m[name] = b
	}
	return b
}

// DeclareQueue declares name, refusing different settings with PRECONDITION_FAILED.
func (t *memTransport) DeclareQueue(ctx context.Context, name string, spec driver.QueueSpec) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return t.c.DeclareQueue(name, spec)
}

// DeclareExchange declares name, refusing different settings with PRECONDITION_FAILED.
func (t *memTransport) DeclareExchange(ctx context.Context, name string, spec driver.ExchangeSpec) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return t.c.DeclareExchange(name, spec)
}

// Bind binds queue to exchange with key; both must be declared.
func (t *memTransport) Bind(ctx context.Context, queue, exchange, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return t.c.Bind(queue, exchange, key)
}

// Publish routes msg and reports whether it reached a queue. Its headers
// arrive as a RabbitMQ consumer would read them; a header AMQP cannot carry
// or an invalid Expiration is refused. With confirms, a queue that refuses
// it for being full (x-overflow reject-publish) fails the publish with
// ErrBrokerRefused, as the broker's nack does.
func (t *memTransport) Publish(ctx context.Context, exchange, key string, msg driver.Outbound) (PublishResult, error) {
	if err := ctx.Err(); err != nil {
		return PublishResult{}, err
	}
	out, err := t.c.Publish(exchange, key, toMemMessage(msg))
	if errors.As(err, new(memq.RefusedError)) {
		return PublishResult{}, fmt.Errorf("%w: %w", ErrBrokerRefused, err) // as RabbitMQ's channel close
	}
	if err != nil {
		return PublishResult{}, err
	}
	if out.RefusedBy != "" && t.confirms {
		return PublishResult{}, fmt.Errorf("%w: queue %q is full (x-overflow %s)", ErrBrokerRefused, out.RefusedBy, out.Overflow)
	}
	res := PublishResult{MessageID: msg.MessageID, Confirmed: t.confirms, Routed: true}
	if msg.Mandatory && !out.Routed {
		res.Routed, res.ReturnReason = false, "312 NO_ROUTE"
	}
	return res, nil
}

// MessageCount returns the number of ready messages in queue.
func (t *memTransport) MessageCount(ctx context.Context, queue string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return t.c.MessageCount(queue)
}

// Pull takes the next ready message of queue, auto-acknowledged.
func (t *memTransport) Pull(ctx context.Context, queue string) (driver.Delivery, bool, error) {
	if err := ctx.Err(); err != nil {
		return driver.Delivery{}, false, err
	}
	d, ok, err := t.c.Pull(queue)
	return fromMemDelivery(d), ok, err
}

// Consume subscribes deliver to queue, which must be declared. Deliveries
// come from one goroutine per subscription, in queue order; at most
// spec.Prefetch are unsettled at any time (0 = unlimited).
func (t *memTransport) Consume(ctx context.Context, queue string, spec driver.ConsumeSpec, deliver func(driver.Delivery)) (driver.Subscription, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, err := t.c.Consume(queue, memq.ConsumeSpec{Prefetch: spec.Prefetch, Args: spec.Args, OnCancel: onCancel(queue, spec)}, func(d memq.Delivery) {
		deliver(fromMemDelivery(d))
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// onCancel is spec's OnCancel as the memory broker calls it, nil without one.
func onCancel(queue string, spec driver.ConsumeSpec) func() {
	if spec.OnCancel == nil {
		return nil
	}
	return func() {
		spec.OnCancel(fmt.Errorf("acemq: the broker cancelled the subscription: queue %q was deleted", queue))
	}
}

// Close closes every subscription of this connection, returning their
// unsettled messages to their queues. The broker itself lives on. Idempotent.
func (t *memTransport) Close() error { return t.c.Close() }

// toMemMessage is msg as the broker takes it.
func toMemMessage(msg driver.Outbound) memq.Message {
	return memq.Message{Body: msg.Body, ContentType: msg.ContentType, MessageID: msg.MessageID,
		Headers: msg.Headers, ReplyTo: msg.ReplyTo, CorrelationID: msg.CorrelationID,
		Expiration: msg.Expiration}
}

// fromMemDelivery is d as acemq hands it to a consumer; the broker's Acker
// settles it.
func fromMemDelivery(d memq.Delivery) driver.Delivery {
	return driver.Delivery{Body: d.Body, ContentType: d.ContentType, Exchange: d.Exchange,
		RoutingKey: d.RoutingKey, MessageID: d.MessageID, ReplyTo: d.ReplyTo,
		CorrelationID: d.CorrelationID, Expiration: d.Expiration, Headers: d.Headers,
		Redelivered: d.Redelivered, Acker: d.Acker}
}
