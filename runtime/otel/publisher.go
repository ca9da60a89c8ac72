package otel

import (
	"context"
	"maps"
	"slices"
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/batchfail"
)

// Publisher is an acemq.Publisher that opens a `<destination> publish`
// PRODUCER span around every message it sends, as a child of the span the
// caller's ctx carries, and writes that span's traceparent onto the
// message. With tracing.PublishInterceptor() installed on the connection the
// interceptor completes and ends the span from its outcome hook; without it
// the Publisher does both itself. It holds configuration only: safe for
// concurrent use, nothing to close.
type Publisher[T any] struct {
	tracing  *Tracing
	inner    *acemq.Publisher[T]
	exchange string
	key      string
}

// NewPublisher returns a traced publisher of T to exchange with routingKey;
// opts configure the acemq.Publisher it wraps, with the same defaults.
func NewPublisher[T any](tracing *Tracing, conn *acemq.Conn, exchange, routingKey string, opts ...acemq.PublisherOption[T]) *Publisher[T] {
	return Wrap(tracing, acemq.NewPublisher(conn, exchange, routingKey, opts...), exchange, routingKey)
}

// Wrap traces an existing publisher, which sends to exchange with routingKey
// (the names the spans carry before the envelope exists).
func Wrap[T any](tracing *Tracing, p *acemq.Publisher[T], exchange, routingKey string) *Publisher[T] {
	return &Publisher[T]{tracing: tracing, inner: p, exchange: exchange, key: routingKey}
}

// Unwrap returns the acemq.Publisher that does the sending.
func (p *Publisher[T]) Unwrap() *acemq.Publisher[T] { return p.inner }

// Send publishes payload inside a publish span and waits for the broker's
// confirm, as acemq.Publisher.Send does.
func (p *Publisher[T]) Send(ctx context.Context, payload T, opts ...acemq.EnvelopeOption) error {
	_, err := p.SendResult(ctx, payload, opts...)
	return err
}

// SendResult is Send that also returns what the broker said.
func (p *Publisher[T]) SendResult(ctx context.Context, payload T, opts ...acemq.EnvelopeOption) (acemq.PublishResult, error) {
	ctx, ps := p.tracing.startPublish(ctx, p.exchange, p.key)
	describe := func(env *acemq.Envelope) error {
		ps.describe(env)
		return nil
	}
	res, err := p.inner.SendResult(ctx, payload, slices.Concat(opts, []acemq.EnvelopeOption{describe})...)
	ps.end(acemq.PublishOutcome{Result: res, Err: err, Exchange: p.exchange, RoutingKey: p.key})
	return res, err
}

// SendAll publishes every payload concurrently, each in a span of its own
// (each message carries its own traceparent), and waits for every confirm,
// as acemq.Publisher.SendAll does: results in payload order, a
// *acemq.BatchPublishFailedError when some failed.
func (p *Publisher[T]) SendAll(ctx context.Context, payloads []T, opts ...acemq.EnvelopeOption) ([]acemq.PublishResult, error) {
	results := make([]acemq.PublishResult, len(payloads))
	errs := make([]error, len(payloads))
	var wg sync.WaitGroup
	for i, payload := range payloads {
		wg.Go(func() { results[i], errs[i] = p.SendResult(ctx, payload, opts...) })
	}
	wg.Wait()
	return results, batchfail.New(errs)
}

// SendEnvelope publishes payload with env inside a publish span, as
// acemq.Publisher.SendEnvelope does. env's headers are copied before the
// traceparent is written, so the caller's map is left as it was. Without
// the interceptor the span cannot tell a confirm from a plain publish and
// records a success as published.
func (p *Publisher[T]) SendEnvelope(ctx context.Context, payload T, env acemq.Envelope) error {
	ctx, ps := p.tracing.startPublish(ctx, p.exchange, p.key)
	env.Headers = maps.Clone(env.Headers)
	ps.describe(&env)
	err := p.inner.SendEnvelope(ctx, payload, env)
	ps.end(acemq.PublishOutcome{Err: err, Exchange: p.exchange, RoutingKey: p.key, Envelope: env})
	return err
}
