package patterns

import (
	"context"
	"fmt"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/safecall"

	"github.com/acemq/acemq-gen/runtime/internal/option"
)

// storeTimeout bounds a Confirm or Release, which run detached from the
// handler's cancellation so that a timed-out or drained handler still
// records its result.
const storeTimeout = 10 * time.Second

// IdempotencyOption configures WithIdempotency and IdempotentBy.
type IdempotencyOption func(*idempotencyConfig)

type idempotencyConfig struct {
	inProgressDelay time.Duration
}

// InProgressDelay sets how long a message whose key another consumer is
// handling waits before it is looked at again (acemq.InProgress). Default
// acemq.DefaultInProgressDelay (5s); zero or less means the default.
func InProgressDelay(d time.Duration) IdempotencyOption {
	return func(c *idempotencyConfig) { c.inProgressDelay = d }
}

// WithIdempotency runs the handler at most once per message ID (the
// envelope's x-acemq-id), as IdempotentBy does with that key.
func WithIdempotency[T any](store IdempotencyStore, opts ...IdempotencyOption) Middleware[T] {
	return IdempotentBy(store, func(m acemq.Message[T]) string { return m.Envelope.ID }, opts...)
}

// IdempotentBy runs the handler at most once per key keyFn gives a message:
//
//	claim key → Duplicate:  Accept, handler not run
//	          → InProgress: acemq.InProgress(delay), handler not run
//	          → Claimed:    run handler → Accept: Confirm; otherwise Release
//
// An empty key rejects the message fatally ("acemq: message <id> produced an
// empty idempotency key"). A store error retries the message, except a
// failed Release of a (non-fatal) retry, which waits as InProgress instead:
// the claim it could not give back still stands, and a retry would only
// spend an attempt finding that out. A panicking store counts as a store
// error ("the idempotency store panicked: <value>"), never a crash. A
// panicking handler releases its claim before the panic goes on. The store is asked with the handler's
// context for the claim and with a detached one (bounded to 10s) for Confirm
// and Release. Panics when store or keyFn is nil. Safe for concurrent use
// when store is.
func IdempotentBy[T any](store IdempotencyStore, keyFn func(acemq.Message[T]) string, opts ...IdempotencyOption) Middleware[T] {
	if store == nil || keyFn == nil {
		panic("acemq: IdempotentBy needs a store and a key function")
	}
	g := newGuard(store, opts)
	return func(next acemq.Handler[T]) acemq.Handler[T] {
		return func(ctx context.Context, m acemq.Message[T]) acemq.Ack {
			key := keyFn(m)
			if key == "" {
				return acemq.Reject(acemq.Fatalf("acemq: message %s produced an empty idempotency key", m.Envelope.ID))
			}
			return g.guard(ctx, key, func() acemq.Ack { return next(ctx, m) })
		}
	}
}

// guard is IdempotentBy's logic, free of the payload type.
type guard struct {
	store IdempotencyStore
	cfg   idempotencyConfig
}

func newGuard(store IdempotencyStore, opts []IdempotencyOption) guard {
	cfg := idempotencyConfig{inProgressDelay: acemq.DefaultInProgressDelay}
	option.Apply(&cfg, opts)
	return guard{store: store, cfg: cfg}
}

// guard claims key and runs handle when the claim is the caller's.
func (g guard) guard(ctx context.Context, key string, handle func() acemq.Ack) acemq.Ack {
	res, err := g.claim(ctx, key)
	switch {
	case err != nil:
		return acemq.Retry(fmt.Errorf("acemq: cannot claim idempotency key %q: %w", key, err))
	case res == Duplicate:
		return acemq.Accept()
	case res == InProgress:
		return acemq.InProgress(g.cfg.inProgressDelay)
	}
	return g.settle(ctx, key, g.run(ctx, key, handle))
}

// storeName names the store in the error its panic becomes.
const storeName = "the idempotency store"

// claim asks the store, through TryClaim when it has it.
func (g guard) claim(ctx context.Context, key string) (ClaimResult, error) {
	return safecall.Call(storeName, func() (ClaimResult, error) {
		if tc, ok := g.store.(TryClaimer); ok {
			return tc.TryClaim(ctx, key)
		}
		claimed, err := g.store.Claim(ctx, key)
		if err != nil || claimed {
			return Claimed, err
		}
		return Duplicate, nil
	})
}

// run calls handle, releasing the claim when it panics.
func (g guard) run(ctx context.Context, key string, handle func() acemq.Ack) acemq.Ack {
	defer func() {
		if p := recover(); p != nil {
			_ = g.release(ctx, key)
			panic(p)
		}
	}()
	return handle()
}

// settle confirms an accepted message's key and releases any other's.
func (g guard) settle(ctx context.Context, key string, ack acemq.Ack) acemq.Ack {
	if ack.String() == "accept" {
		if err := g.confirm(ctx, key); err != nil {
			return acemq.Retry(fmt.Errorf("acemq: cannot confirm idempotency key %q: %w", key, err))
		}
		return ack
	}
	if err := g.release(ctx, key); err != nil && ack.IsRetry() && !acemq.IsFatal(ack.Err()) {
		return acemq.InProgress(g.cfg.inProgressDelay)
	}
	return ack
}

func (g guard) confirm(ctx context.Context, key string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	return safecall.Err(storeName, func() error { return g.store.Confirm(ctx, key) })
}

func (g guard) release(ctx context.Context, key string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	return safecall.Err(storeName, func() error { return g.store.Release(ctx, key) })
}
