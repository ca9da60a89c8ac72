package acemq

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// drainGrace is how long Close still waits for handlers after cancelling
// their contexts at the DrainTimeout.
const drainGrace = 500 * time.Millisecond

// Handler handles one message and says what should become of it.
type Handler[T any] func(ctx context.Context, m Message[T]) Ack

// Message is one decoded delivery as a handler receives it. Body and
// ContentType are what was decoded (after any consume interceptor rewrote them).
type Message[T any] struct {
	Payload     T
	Envelope    Envelope
	Body        []byte
	ContentType string
	RoutingKey  string
	Redelivered bool
	// Queue is the queue the message was consumed (or pulled) from: what an
	// inbox records the message id for (outbox.Once).
	Queue string
	// Stream is the message's offset and append time when it was read from a
	// stream (ReadStream, a generated Read<Stream>); the zero value otherwise.
	Stream StreamRecord
}

// Consume starts handling the messages of queue, which must already be
// declared (Consume does not declare it to start). Should the broker delete
// it while it is consumed (an operator), the consumer declares it again as
// it was declared through conn, with its bindings, or, for a queue declared
// elsewhere, consumes again with back-off once it exists; meanwhile
// Interrupted and conn's Health report it. It first declares the consumer's
// half of the topology once: acemq.dlx, {queue}.dlq and {queue}.parked with
// their bindings, and, when the retry policy waits in the broker, acemq.retry,
// the rung queues and queue's binding to acemq.retry. Cancelling ctx stops
// the consumer as Close does; handlers get a context that keeps ctx's values
// but is cancelled only at the drain bound.
func Consume[T any](ctx context.Context, conn *Conn, queue string, h Handler[T], opts ...ConsumeOption) (*Consumer, error) {
	if h == nil {
		return nil, fmt.Errorf("acemq: Consume on %q was given a nil handler", queue)
	}
	cfg, err := buildConsumeConfig(conn, opts)
	if err == nil {
		err = cfg.finishStream()
	}
	if err != nil {
		return nil, err
	}
	return startConsumer(ctx, conn, queue, cfg, handlerProcess(cfg.codec, h))
}

// inbound is a delivery as the decode step sees it, after the interceptors.
type inbound struct {
	env         Envelope
	body        []byte
	contentType string
	routingKey  string
	redelivered bool
	queue       string
	stream      StreamRecord
}

// processFunc decodes a delivery and runs the handler; a decode failure is
// returned as the error.
type processFunc func(ctx context.Context, in inbound) (Ack, error)

func handlerProcess[T any](codec Codec, h Handler[T]) processFunc {
	return func(ctx context.Context, in inbound) (Ack, error) {
		var payload T
		if err := DecodeFor(codec, in.contentType, in.body, &payload); err != nil {
			return Ack{}, err
		}
		return callHandler(ctx, h, Message[T]{
			Payload: payload, Envelope: in.env, Body: in.body, ContentType: in.contentType,
			RoutingKey: in.routingKey, Redelivered: in.redelivered, Queue: in.queue, Stream: in.stream,
		}), nil
	}
}

// callHandler runs h, turning a panic into a fatal Reject.
func callHandler[T any](ctx context.Context, h Handler[T], m Message[T]) Ack {
	ack, err := guarded(func() string { return "acemq: the handler" }, func() (Ack, error) { return h(ctx, m), nil })
	if p, ok := panicked(err); ok {
		return Reject(Fatalf("acemq: the handler panicked on message %s: %v", m.Envelope.ID, p))
	}
	return ack
}

// Consumer is a running subscription of a queue. Safe for concurrent use.
type Consumer struct {
	conn           *Conn
	queue          string
	cfg            consumeConfig
	process        processFunc
	sub            driver.Subscription
	work           chan driver.Delivery
	stopping       chan struct{}
	done           chan struct{}
	workers        sync.WaitGroup
	running        atomic.Int64
	handlerCtx     context.Context
	cancelHandlers context.CancelFunc
	closeOnce      sync.Once
	closeErr       error

	// subMu guards sub, which is replaced when the consumer consumes again
	// after the broker cancelled it, and interruption, why the broker
	// stopped delivering (nil while consuming) (consume_recover.go).
	subMu        sync.Mutex
	interruption error
	// setAsideBackoff is the last wait (a time.Duration) before returning a
	// message that could not be set aside (engine_setaside.go).
	setAsideBackoff atomic.Int64
}

func startConsumer(ctx context.Context, conn *Conn, queue string, cfg consumeConfig, process processFunc) (*Consumer, error) {
	if conn.isClosed() {
		return nil, wrapf(ErrClosed, "acemq: cannot consume from %q", queue)
	}
	if err := consumerTopology(queue, cfg.retry, cfg.setAside).applyTo(ctx, conn); err != nil {
		return nil, wrapf(err, "acemq: cannot consume from %q", queue)
	}
	c := newConsumer(ctx, conn, queue, cfg, process)
	if err := c.subscribe(ctx); err != nil {
		c.cancelHandlers()
		return nil, wrapf(err, "acemq: cannot consume from %q", queue)
	}
	c.start(ctx)
	return c, nil
}

// subscribe starts the transport's subscription and registers the consumer
// with its connection.
func (c *Consumer) subscribe(ctx context.Context) error {
	sub, err := c.consume(ctx)
	if err != nil {
		return err
	}
	c.sub = sub
	if err := c.conn.track(c); err != nil {
		_ = sub.Close()
		return err
	}
	return nil
}

func newConsumer(ctx context.Context, conn *Conn, queue string, cfg consumeConfig, process processFunc) *Consumer {
	hctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	return &Consumer{
		conn: conn, queue: queue, cfg: cfg, process: process,
		work:     make(chan driver.Delivery, max(cfg.prefetch, cfg.concurrency)),
		stopping: make(chan struct{}), done: make(chan struct{}),
		handlerCtx: hctx, cancelHandlers: cancel,
	}
}

// start runs the workers and the watcher that closes the consumer with ctx.
func (c *Consumer) start(ctx context.Context) {
	for range c.cfg.concurrency {
		c.workers.Go(c.workLoop)
	}
	go func() {
		select {
		case <-ctx.Done():
			_ = c.Close()
		case <-c.stopping:
		}
	}()
}

// Queue returns the queue the consumer reads.
func (c *Consumer) Queue() string { return c.queue }

// ConsumesFrom reports whether a running consumer (Consume, Serve) of the
// connection reads queue: a responder refuses to send a reply there. Safe
// for concurrent use.
func (c *Conn) ConsumesFrom(queue string) bool {
	return slices.ContainsFunc(c.consumerList(), func(k *Consumer) bool { return k.queue == queue })
}

// Done is closed once the consumer has stopped (after Close, or once ctx
// given to Consume is cancelled and the drain is over).
func (c *Consumer) Done() <-chan struct{} { return c.done }

// deliver is the transport's callback: it queues d for a worker, or returns
// it to the broker once the consumer is stopping.
func (c *Consumer) deliver(d driver.Delivery) {
	select {
	case <-c.stopping:
		c.requeue(d)
		return
	default:
	}
	select {
	case c.work <- d:
	case <-c.stopping:
		c.requeue(d)
	}
}

// workLoop handles deliveries until the consumer stops.
func (c *Consumer) workLoop() {
	for {
		select {
		case <-c.stopping:
			return
		case d := <-c.work:
			if c.isStopping() {
				c.requeue(d)
				return
			}
			c.handle(d)
		}
	}
}

func (c *Consumer) isStopping() bool {
	select {
	case <-c.stopping:
		return true
	default:
		return false
	}
}

// requeue returns an unstarted delivery to its queue; a stream record is
// left unsettled (a stream has no requeue: RabbitMQ closes the connection on
// the nack, and the reader's position stays before the record).
func (c *Consumer) requeue(d driver.Delivery) {
	if c.cfg.stream != nil {
		return
	}
	if err := d.Nack(true); err != nil {
		c.conn.cfg.logger.Warn("acemq: cannot return an unstarted message to its queue",
			"queue", c.queue, "message", d.MessageID, "error", err)
	}
}

// requeueWaiting returns every delivery still waiting for a worker.
func (c *Consumer) requeueWaiting() {
	for {
		select {
		case d := <-c.work:
			c.requeue(d)
		default:
			return
		}
	}
}
