package acemq

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// ConnOption configures a connection at Connect. Options are validated; an
// invalid one fails Connect.
type ConnOption func(*connConfig) error

// connConfig is everything Connect was told.
type connConfig struct {
	ext      map[any]any
	codec    Codec
	origin   string
	retry    RetryPolicy
	prefetch int
	logger   *slog.Logger
	pubInts  []PublishInterceptor
	consInts []ConsumeInterceptor
	observer Observer
	// setAsideType is SetAsideQueuesOfType's; empty: the topology's own
	// (classic).
	setAsideType QueueType
}

// defaultConnConfig is the configuration before any option.
func defaultConnConfig() connConfig {
	return connConfig{codec: JSONCodec{}, prefetch: DefaultPrefetch, logger: slog.Default(), observer: NopObserver{}}
}

// buildConnConfig applies opts in order, stopping at the first invalid one.
func buildConnConfig(opts []ConnOption) (connConfig, error) {
	cfg := defaultConnConfig()
	for _, opt := range opts {
		if opt == nil {
			return connConfig{}, errors.New("acemq: a connection option is nil")
		}
		if err := opt(&cfg); err != nil {
			return connConfig{}, err
		}
	}
	cfg.observer = guardObserver(cfg.observer, cfg.logger)
	return cfg, nil
}

// Conn is a connection to a broker through one Transport. It holds the
// connection-wide defaults (codec, origin, retry policy, prefetch,
// interceptors, logger) that publishers and consumers start from. Safe for
// concurrent use.
type Conn struct {
	cfg       connConfig
	transport driver.Transport
	mu        sync.Mutex
	closed    bool
	consumers map[*Consumer]struct{}
	closeOnce sync.Once
	closeErr  error
	// healthQueue is the connection's Health probe queue.
	healthQueue string
	// stream settles SendAsync's publishes (publisher_stream.go).
	stream sendStream
	// declared remembers what was declared through the connection, so a
	// consumer can redeclare its queue (conn_declared.go).
	declared declaredSet
}

// Connect opens a connection to url, picking the transport by the URL's
// scheme (see RegisterTransport): memory://NAME is built in, amqp:// and
// amqps:// need the blank import of runtime/rabbitmq. ctx bounds the dial
// only; close the connection with Close. A URL whose password holds an
// unencoded '/', '?', '#' or '@' is refused before any lookup or dial
// (ErrURLCredentialsNotEncoded); no error quotes the password.
func Connect(ctx context.Context, url string, opts ...ConnOption) (*Conn, error) {
	if err := CheckURL(url); err != nil {
		return nil, err
	}
	cfg, err := buildConnConfig(opts)
	if err != nil {
		return nil, err
	}
	dial, err := driver.Dialer(url)
	if err != nil {
		return nil, err
	}
	t, err := dial(ctx, url, driver.NewExtensions(cfg.ext))
	if err != nil {
		return nil, wrapf(err, "acemq: cannot connect")
	}
	return newConn(t, cfg), nil
}

// NewConn wraps a transport built by hand (such as one from rabbitmq.Dial).
// The connection owns t from then on: Close closes it.
func NewConn(t driver.Transport, opts ...ConnOption) (*Conn, error) {
	if t == nil {
		return nil, errors.New("acemq: NewConn was given a nil transport")
	}
	cfg, err := buildConnConfig(opts)
	if err != nil {
		return nil, err
	}
	return newConn(t, cfg), nil
}

func newConn(t driver.Transport, cfg connConfig) *Conn {
	return &Conn{
		cfg: cfg, transport: t, consumers: map[*Consumer]struct{}{},
		healthQueue: "acemq-health-" + NewUUID(),
	}
}

// Extensions returns the extension values given to Connect (see Extension).
func (c *Conn) Extensions() driver.Extensions { return driver.NewExtensions(c.cfg.ext) }

// Transport returns the transport the connection publishes and consumes through.
func (c *Conn) Transport() driver.Transport { return c.transport }

// Codec returns the connection's codec: WithCodec's, JSONCodec{} by default.
func (c *Conn) Codec() Codec { return c.cfg.codec }

// Logger returns the connection's logger: WithLogger's, slog.Default() by default.
func (c *Conn) Logger() *slog.Logger { return c.cfg.logger }

// RetryPolicy returns the policy consumers use unless given RetryWith:
// WithRetry's, DefaultRetryPolicy() by default.
func (c *Conn) retryPolicy() RetryPolicy {
	if c.cfg.retry.IsZero() {
		return DefaultRetryPolicy()
	}
	return c.cfg.retry
}

// origin returns the origin stamped on published envelopes.
func (c *Conn) origin() string {
	if c.cfg.origin == "" {
		return defaultOrigin()
	}
	return c.cfg.origin
}

// isClosed reports whether Close has been called.
func (c *Conn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// DeclareQueue declares a queue (durable, quorum unless the options say
// otherwise). Declaring it again with the same settings is a no-op; with
// different ones the broker refuses (PRECONDITION_FAILED).
func (c *Conn) DeclareQueue(ctx context.Context, name string, opts ...QueueOption) error {
	spec, err := buildQueueSpec(opts)
	if err != nil {
		return err
	}
	if err := c.transport.DeclareQueue(ctx, name, spec); err != nil {
		return wrapf(err, "acemq: cannot declare queue %q", name)
	}
	c.declared.queue(name, spec)
	return nil
}

// DeclareExchange declares an exchange of kind (direct, topic, fanout or
// headers), durable unless the options say otherwise.
func (c *Conn) DeclareExchange(ctx context.Context, name, kind string, opts ...ExchangeOption) error {
	spec, err := buildExchangeSpec(kind, opts)
	if err != nil {
		return err
	}
	if err := c.transport.DeclareExchange(ctx, name, spec); err != nil {
		return wrapf(err, "acemq: cannot declare exchange %q", name)
	}
	c.declared.exchange(name, spec)
	return nil
}

// Bind routes messages published to exchange with key (a topic pattern on a
// topic exchange) to queue. Both must be declared.
func (c *Conn) Bind(ctx context.Context, queue, exchange, key string) error {
	if err := c.transport.Bind(ctx, queue, exchange, key); err != nil {
		return wrapf(err, "acemq: cannot bind queue %q to exchange %q with key %q", queue, exchange, key)
	}
	c.declared.binding(topoBinding{queue: queue, exchange: exchange, key: key})
	return nil
}

// PublishRaw publishes msg as given, bypassing the publish interceptors, the
// codec and the envelope: it is how the engine moves messages it already
// holds (retries, dead letters). The transport's error is returned unchanged.
func (c *Conn) PublishRaw(ctx context.Context, exchange, key string, msg driver.Outbound) (PublishResult, error) {
	if c.isClosed() {
		return PublishResult{}, ErrClosed
	}
	return c.transport.Publish(ctx, exchange, key, msg)
}

// Close closes every consumer of the connection in parallel (each bounded
// by its DrainTimeout), then the transport. It returns the consumers' drain
// errors joined with the transport's. Idempotent: later calls return the
// first call's result.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		consumers := make([]*Consumer, 0, len(c.consumers))
		for k := range c.consumers {
			consumers = append(consumers, k)
		}
		c.mu.Unlock()
		c.closeErr = errors.Join(closeAll(consumers), c.transport.Close())
	})
	return c.closeErr
}

// closeAll closes consumers in parallel and joins their errors.
func closeAll(consumers []*Consumer) error {
	errs := make([]error, len(consumers))
	var wg sync.WaitGroup
	for i, k := range consumers {
		wg.Go(func() { errs[i] = k.Close() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// track registers a running consumer; it fails once the connection is closed.
func (c *Conn) track(k *Consumer) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrClosed
	}
	c.consumers[k] = struct{}{}
	return nil
}

// forget drops a closed consumer.
func (c *Conn) forget(k *Consumer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.consumers, k)
}

// consumerList returns the running consumers.
func (c *Conn) consumerList() []*Consumer {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*Consumer, 0, len(c.consumers))
	for k := range c.consumers {
		out = append(out, k)
	}
	return out
}

// consumerCount returns the number of running consumers.
func (c *Conn) consumerCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.consumers)
}

// MessageCount returns how many messages of queue are ready for delivery,
// when the transport can count them (QueueInspector; memory:// and the
// RabbitMQ transport can).
func (c *Conn) MessageCount(ctx context.Context, queue string) (int, error) {
	qi, err := transportAs[driver.QueueInspector](c, "count the messages of a queue")
	if err != nil {
		return 0, err
	}
	return qi.MessageCount(ctx, queue)
}

// Pull takes the next ready message of queue, settled as it is taken, when
// the transport can (Puller); ok is false when the queue is empty. It is for
// tools and tests: a Consume is how messages are meant to be read.
func (c *Conn) Pull(ctx context.Context, queue string) (d driver.Delivery, ok bool, err error) {
	p, err := transportAs[driver.Puller](c, "pull from a queue")
	if err != nil {
		return driver.Delivery{}, false, err
	}
	return p.Pull(ctx, queue)
}
