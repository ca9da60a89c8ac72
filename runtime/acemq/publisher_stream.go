package acemq

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// SendAsync publishes payload as Send does (a new envelope, the publish
// interceptors, the codec, the required and reserved header checks,
// Mandatory) but returns once the message is written, without waiting for
// the broker's confirm; the Pending's Wait returns what SendResult would
// have. It is how one goroutine keeps the connection's window of
// unconfirmed publishes full: SendAsync blocks, as long as ctx allows, while
// that window is full (RabbitMQ: MaxOutstandingPublishes), and, like Send,
// while the connection is blocked or recovering. ctx bounds the preparing
// and the writing only; waiting is Wait's.
//
// The publish's outcome hooks run exactly once, when its outcome is known
// (the confirm, a nack, the channel or connection lost before the confirm),
// whether or not Wait is ever called, and before any Wait returns; they get
// ctx without its cancellation. Outcomes known when the message is written
// (memory://, a failure) are settled by SendAsync itself; the others, on a
// goroutine of the connection's, one at a time, in the order the messages
// were written. A lost connection never loses a Pending: each one resolves
// with its confirm or with an error (ErrConfirmLost on RabbitMQ).
//
// When the message cannot be written (an interceptor's refusal, a codec
// error, ctx ending while waiting for a window slot, a closed connection),
// SendAsync returns that error, the error Send would have returned, with a
// nil Pending; its outcome hooks have run.
//
// Messages one goroutine sends reach the broker in the order of its calls
// when the transport is an AsyncPublisher (memory:// and RabbitMQ are). A
// transport that is not still works: each message is handed to
// Transport.Publish on a goroutine of its own, at most SendAsyncWindow at
// once per connection, in no guaranteed order; once SendAsync has returned,
// that Publish is no longer bounded by ctx. Safe for concurrent use.
func (p *Publisher[T]) SendAsync(ctx context.Context, payload T, opts ...EnvelopeOption) (*Pending, error) {
	o, err := p.begin(ctx, payload, opts)
	if err != nil {
		return nil, err
	}
	if err := o.err; err != nil {
		p.finish(ctx, o)
		p.release(o)
		return nil, err
	}
	pd := &Pending{done: make(chan struct{}), s: p, o: o, ctx: ctx}
	if p.conn.observing() {
		pd.start = time.Now()
	}
	if ap, ok := p.conn.transport.(driver.AsyncPublisher); ok {
		return p.conn.stream.write(ctx, ap, pd)
	}
	return p.conn.stream.hand(ctx, p.conn.transport, pd)
}

// SendAsyncWindow bounds the SendAsync publishes in flight at once on one
// connection whose transport is not an AsyncPublisher (an AsyncPublisher
// has a window of its own, such as RabbitMQ's MaxOutstandingPublishes).
const SendAsyncWindow = 1000

// sendStream is a connection's SendAsync state: the queue of written
// messages waiting for their confirm, settled in order by one goroutine
// while it is not empty, and the window of the path without PublishAsync.
// Its zero value is ready; safe for concurrent use.
type sendStream struct {
	mu         sync.Mutex
	head, tail *Pending
	running    bool
	slotsOnce  sync.Once
	slots      chan struct{}
}

// write hands the prepared message to the AsyncPublisher and queues its
// confirmation, or settles it at once when its outcome is already known.
func (s *sendStream) write(ctx context.Context, ap driver.AsyncPublisher, pd *Pending) (*Pending, error) {
	o := pd.o
	conf, err := ap.PublishAsync(ctx, o.pc.Exchange, o.pc.RoutingKey, o.out)
	if err == nil && conf == nil {
		err = errNoConfirmation
	}
	if err != nil {
		pd.resolve(PublishResult{}, err)
		return nil, pd.err
	}
	if settled, res, err := driver.Settled(conf); settled {
		pd.resolve(res, err)
		return pd, nil
	}
	pd.conf = conf
	s.enqueue(pd)
	return pd, nil
}

// enqueue adds a written message to the settle queue, starting its
// goroutine when idle.
func (s *sendStream) enqueue(pd *Pending) {
	s.mu.Lock()
	if s.tail == nil {
		s.head = pd
	} else {
		s.tail.next = pd
	}
	s.tail = pd
	idle := !s.running
	s.running = true
	s.mu.Unlock()
	if idle {
		go s.settleQueued()
	}
}

// settleQueued waits for each queued confirmation in turn and settles it,
// until the queue is empty.
func (s *sendStream) settleQueued() {
	for pd := s.pop(); pd != nil; pd = s.pop() {
		res, err := pd.conf.Wait(context.Background())
		pd.resolve(res, err)
	}
}

// pop takes the head of the queue, or returns nil (and stops running) when
// the queue is empty.
func (s *sendStream) pop() *Pending {
	s.mu.Lock()
	defer s.mu.Unlock()
	pd := s.head
	if pd == nil {
		s.tail, s.running = nil, false
		return nil
	}
	s.head, pd.next = pd.next, nil
	if s.head == nil {
		s.tail = nil
	}
	return pd
}

// hand publishes the prepared message through Transport.Publish on a
// goroutine of its own, once a slot of the connection's SendAsyncWindow is
// free (waiting as long as ctx allows).
func (s *sendStream) hand(ctx context.Context, t driver.Transport, pd *Pending) (*Pending, error) {
	if err := s.acquire(ctx); err != nil {
		pd.resolve(PublishResult{}, err)
		return nil, pd.err
	}
	go func() {
		o := pd.o
		res, err := t.Publish(context.WithoutCancel(ctx), o.pc.Exchange, o.pc.RoutingKey, o.out)
		<-s.slots
		pd.resolve(res, err)
	}()
	return pd, nil
}

// acquire takes a slot of the window, waiting as long as ctx allows.
func (s *sendStream) acquire(ctx context.Context) error {
	s.slotsOnce.Do(func() { s.slots = make(chan struct{}, SendAsyncWindow) })
	select {
	case s.slots <- struct{}{}:
		return nil
	default:
	}
	select {
	case s.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("all %d SendAsyncWindow slots hold unconfirmed messages: %w", SendAsyncWindow, ctx.Err())
	}
}
