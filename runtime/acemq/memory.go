package acemq

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
)

// The memory transport: memory://NAME is a broker that lives in this process.
// Each distinct NAME is its own broker; every Connect to the same NAME reaches
// the same one, for the life of the process. memory://NAME?confirms=off
// behaves like a RabbitMQ connection without publisher confirms.
//
// It behaves like RabbitMQ 3.10 where acemq can tell (runtime/acemqtest runs
// the same suites on both): direct, topic, fanout and headers exchanges, the
// amq.* exchanges and the reserved amq. prefix, alternate exchanges,
// auto-delete queues and exchanges, exclusive queues locked to and deleted
// with their connection, x-expires, PRECONDITION_FAILED on inequivalent
// redeclarations, message and queue TTLs (expiring at the head of the
// queue), dead-lettering with x-death, x-max-length(-bytes) with drop-head
// and reject-publish, single active consumers and consumer priorities,
// quorum queues' requeue order, x-delivery-count and x-delivery-limit, and
// header values as the broker hands them back. It does not model streams
// (declared, not consumable), headers-exchange binding arguments (every
// binding matches), message priorities or anything about durability across
// restarts.

func init() { RegisterTransport("memory", dialMemory) }

// memoryBrokers holds every memory broker of the process by name.
var memoryBrokers = struct {
	sync.Mutex
	m map[string]*memBroker
}{m: map[string]*memBroker{}}

// errMemoryClosed is returned by every call on a closed memory transport.
var errMemoryClosed = errors.New("memory: the connection is closed")

// memTransport is one connection to a memory broker.
type memTransport struct {
	b        *memBroker
	confirms bool
	mu       sync.Mutex
	closed   bool
	subs     map[*memSub]struct{}
}

// dialMemory opens memory://NAME[?confirms=off].
func dialMemory(_ context.Context, rawURL string, _ Extensions) (Transport, error) {
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
	return &memTransport{b: memoryBroker(name), confirms: confirms, subs: map[*memSub]struct{}{}}, nil
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
func memoryBroker(name string) *memBroker {
	memoryBrokers.Lock()
	defer memoryBrokers.Unlock()
	b, ok := memoryBrokers.m[name]
	if !ok {
		b = newMemBroker(name)
		memoryBrokers.m[name] = b
	}
	return b
}

// check fails when the transport is closed or ctx is done.
func (t *memTransport) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return errMemoryClosed
	}
	return nil
}

// DeclareQueue declares name, refusing different settings with PRECONDITION_FAILED.
func (t *memTransport) DeclareQueue(ctx context.Context, name string, spec QueueSpec) error {
	if err := t.check(ctx); err != nil {
		return err
	}
	return t.b.declareQueue(t, name, spec)
}

// DeclareExchange declares name, refusing different settings with PRECONDITION_FAILED.
func (t *memTransport) DeclareExchange(ctx context.Context, name string, spec ExchangeSpec) error {
	if err := t.check(ctx); err != nil {
		return err
	}
	return t.b.declareExchange(name, spec)
}

// Bind binds queue to exchange with key; both must be declared.
func (t *memTransport) Bind(ctx context.Context, queue, exchange, key string) error {
	if err := t.check(ctx); err != nil {
		return err
	}
	return t.b.bind(t, queue, exchange, key)
}

// Publish routes msg and reports whether it reached a queue. Its headers
// arrive as a RabbitMQ consumer would read them (see wireHeaders); a header
// AMQP cannot carry or an invalid Expiration is refused. With confirms, a
// queue that refuses it for being full (x-overflow reject-publish) fails the
// publish with ErrBrokerRefused, as the broker's nack does.
func (t *memTransport) Publish(ctx context.Context, exchange, key string, msg Outbound) (PublishResult, error) {
	if err := t.check(ctx); err != nil {
		return PublishResult{}, err
	}
	msg, err := t.b.wireOutbound(msg)
	if err != nil {
		return PublishResult{}, err
	}
	routed, refusedBy, err := t.b.publish(exchange, key, msg)
	if err != nil {
		return PublishResult{}, err
	}
	if refusedBy != nil && t.confirms {
		return PublishResult{}, fmt.Errorf("%w: queue %q is full (x-overflow %s)", ErrBrokerRefused, refusedBy.name, refusedBy.limits.overflow)
	}
	res := PublishResult{MessageID: msg.MessageID, Confirmed: t.confirms, Routed: true}
	if msg.Mandatory && !routed {
		res.Routed, res.ReturnReason = false, "312 NO_ROUTE"
	}
	return res, nil
}

// MessageCount returns the number of ready messages in queue.
func (t *memTransport) MessageCount(ctx context.Context, queue string) (int, error) {
	if err := t.check(ctx); err != nil {
		return 0, err
	}
	return t.b.messageCount(t, queue)
}

// Pull takes the next ready message of queue, auto-acknowledged.
func (t *memTransport) Pull(ctx context.Context, queue string) (Delivery, bool, error) {
	if err := t.check(ctx); err != nil {
		return Delivery{}, false, err
	}
	return t.b.pull(t, queue)
}

// Close closes every subscription of this connection, returning their
// unsettled messages to their queues. The broker itself lives on. Idempotent.
func (t *memTransport) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	subs := t.subs
	t.subs = nil
	t.mu.Unlock()
	for s := range subs {
		_ = s.Close()
	}
	t.b.dropExclusive(t)
	return nil
}
