package acemq

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// SendAll publishes every payload and waits for every confirm. Each message
// takes Send's path; the messages are prepared (envelope, interceptors,
// codec) by up to GOMAXPROCS goroutines at once, so interceptors run
// concurrently and in no particular order, and each prepared message is
// handed to the transport on a goroutine of its own, so every publish of
// the batch is in flight before any confirm must arrive. Results are in
// payload order, always len(payloads) of them; every outcome hook has run
// when it returns. When some fail, the error is a *BatchPublishFailedError;
// the others were still published (not atomic). An empty batch succeeds.
func (p *Publisher[T]) SendAll(ctx context.Context, payloads []T, opts ...EnvelopeOption) ([]PublishResult, error) {
	b := &batch[T]{p: p, payloads: payloads, opts: opts,
		results: make([]PublishResult, len(payloads)), errs: make([]error, len(payloads))}
	var preparers sync.WaitGroup
	for range min(len(payloads), runtime.GOMAXPROCS(0)) - 1 {
		preparers.Go(func() { b.prepareAll(ctx) })
	}
	b.prepareAll(ctx)
	preparers.Wait()
	b.inFlight.Wait()
	return b.results, batchError(b.errs)
}

// batch is one SendAll: the payloads, the next one to prepare, and the
// publishes in flight.
type batch[T any] struct {
	p        *Publisher[T]
	payloads []T
	opts     []EnvelopeOption
	next     atomic.Int64
	inFlight sync.WaitGroup
	results  []PublishResult
	errs     []error
}

// prepareAll prepares payloads until none is left, starting the publish of
// each as soon as it is ready.
func (b *batch[T]) prepareAll(ctx context.Context) {
	for i := int(b.next.Add(1) - 1); i < len(b.payloads); i = int(b.next.Add(1) - 1) {
		b.start(ctx, i)
	}
}

// start prepares payload i and publishes it on a goroutine of its own; a
// message that fails before the transport is finished here.
func (b *batch[T]) start(ctx context.Context, i int) {
	env, err := b.p.newEnvelope(b.opts)
	if err != nil {
		b.errs[i] = err
		return
	}
	o := b.p.prepare(ctx, b.payloads[i], env)
	if o.err != nil {
		b.p.finish(ctx, o)
		b.results[i], b.errs[i] = o.res, o.err
		return
	}
	b.inFlight.Go(func() {
		b.p.transmit(ctx, o)
		b.p.finish(ctx, o)
		b.results[i], b.errs[i] = o.res, o.err
	})
}
