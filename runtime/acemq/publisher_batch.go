package acemq

import (
	"cmp"
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// SendAll publishes every payload and waits for every confirm. Each message
// takes Send's path; the messages are prepared (envelope, interceptors,
// codec) by several goroutines at once, so interceptors run concurrently and
// in no particular order. When the transport is an AsyncPublisher (memory://
// and RabbitMQ are), up to GOMAXPROCS goroutines prepare, then the calling
// goroutine writes the prepared messages in payload order, so they reach
// the queue in payload order, and only then waits for their confirms: every
// publish of the batch is in flight before any confirm must arrive.
// Otherwise at most SendAllWorkers goroutines (the caller's included) each
// prepare a message, hand it to Transport.Publish and wait for it before
// taking the next, never one goroutine per payload; the messages then reach
// the queue in no particular order. Results are in payload order, always
// len(payloads) of them; every outcome hook has run when it returns. When
// some fail, the error is a *BatchPublishFailedError; the others were still
// published (not atomic). An empty batch succeeds.
func (p *Publisher[T]) SendAll(ctx context.Context, payloads []T, opts ...EnvelopeOption) ([]PublishResult, error) {
	b := &batch[T]{p: p, payloads: payloads, opts: opts,
		results: make([]PublishResult, len(payloads)), errs: make([]error, len(payloads))}
	if ap, ok := p.conn.transport.(driver.AsyncPublisher); ok {
		b.async, b.pending = ap, make([]pending, len(payloads))
	}
	b.prepareConcurrently(ctx)
	if b.async != nil {
		b.publishInOrder(ctx)
		b.awaitInOrder(ctx)
	}
	return b.results, batchError(b.errs)
}

// SendAllWorkers bounds the goroutines, the caller's included, that SendAll
// publishes through on a transport that is not an AsyncPublisher: at most
// this many of its publishes are in flight at once.
const SendAllWorkers = 16

// batch is one SendAll: the payloads, the next one to prepare, and the
// publishes in flight.
type batch[T any] struct {
	p        *Publisher[T]
	payloads []T
	opts     []EnvelopeOption
	next     atomic.Int64
	async    driver.AsyncPublisher // nil: the synchronous path
	pending  []pending             // the asynchronous path's prepared messages, by payload
	results  []PublishResult
	errs     []error
}

// pending is one prepared message of the asynchronous path: nil o when it
// failed before the transport; err when PublishAsync refused it.
type pending struct {
	o     *outgoing
	conf  driver.Confirmation
	err   error
	start time.Time
}

// prepareConcurrently prepares every payload on up to GOMAXPROCS goroutines
// (SendAllWorkers on the synchronous path, where each also publishes), the
// caller's included.
func (b *batch[T]) prepareConcurrently(ctx context.Context) {
	workers := runtime.GOMAXPROCS(0)
	if b.async == nil {
		workers = SendAllWorkers
	}
	var preparers sync.WaitGroup
	for range min(len(b.payloads), workers) - 1 {
		preparers.Go(func() { b.prepareAll(ctx) })
	}
	b.prepareAll(ctx)
	preparers.Wait()
}

// prepareAll prepares payloads until none is left, publishing each as soon
// as it is ready (on the synchronous path).
func (b *batch[T]) prepareAll(ctx context.Context) {
	for i := int(b.next.Add(1) - 1); i < len(b.payloads); i = int(b.next.Add(1) - 1) {
		b.start(ctx, i)
	}
}

// start prepares payload i and either keeps it for publishInOrder or
// publishes it and waits for its confirm; a message that fails before the
// transport is finished here.
func (b *batch[T]) start(ctx context.Context, i int) {
	o, err := b.p.begin(ctx, b.payloads[i], b.opts)
	switch {
	case err != nil:
		b.errs[i] = err
	case o.err == nil && b.async != nil:
		b.pending[i].o = o
	default:
		if o.err == nil {
			b.p.transmit(ctx, o)
		}
		b.p.finish(ctx, o)
		b.results[i], b.errs[i] = o.res, o.err
		b.p.release(o)
	}
}

// publishInOrder writes every prepared message from the calling goroutine,
// in payload order, without waiting for any confirm.
func (b *batch[T]) publishInOrder(ctx context.Context) {
	observed := b.p.conn.observing()
	for i := range b.pending {
		s := &b.pending[i]
		if s.o == nil {
			continue
		}
		if observed {
			s.start = time.Now()
		}
		s.conf, s.err = b.async.PublishAsync(ctx, s.o.pc.Exchange, s.o.pc.RoutingKey, s.o.out)
	}
}

// awaitInOrder waits for each written message's confirm and finishes it.
func (b *batch[T]) awaitInOrder(ctx context.Context) {
	for i := range b.pending {
		s := &b.pending[i]
		if s.o == nil {
			continue
		}
		res, err := s.res(ctx)
		b.p.settle(s.o, res, err, s.start)
		b.p.finish(ctx, s.o)
		b.results[i], b.errs[i] = s.o.res, s.o.err
		b.p.releaseSettled(s.o, err)
		s.o = nil
	}
}

// errNoConfirmation is the error of a PublishAsync that returned neither a
// Confirmation nor an error (a broken transport).
var errNoConfirmation = errors.New("the transport's PublishAsync returned neither a confirmation nor an error")

// res waits for the message's confirm, unless PublishAsync already failed.
func (s *pending) res(ctx context.Context) (PublishResult, error) {
	if s.err != nil || s.conf == nil {
		return PublishResult{}, cmp.Or(s.err, errNoConfirmation)
	}
	return s.conf.Wait(ctx)
}

// settle interprets the transport's answer into o, as transmit does, and
// times the publish from start when the connection is observed.
func (p *Publisher[T]) settle(o *outgoing, res PublishResult, err error, start time.Time) {
	o.res, o.err = res, p.interpret(&o.pc, res, err)
	if !start.IsZero() {
		p.conn.observeTransmitted(o.pc.Exchange, o.pc.RoutingKey, o.res, o.err, start)
	}
}
