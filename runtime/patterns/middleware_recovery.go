package patterns

import (
	"context"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// WithRecovery turns a panic in the handler into the Ack the engine would
// have made of it,
//
//	Reject(Fatalf("acemq: the handler panicked on message <id>: <value>"))
//
// but inside the chain, so that the middleware outside it (a span, a log
// line, an idempotency guard) sees a rejection instead of unwinding. The
// engine recovers a panic that reaches it in the same way; WithRecovery only
// moves the place. Safe for concurrent use.
func WithRecovery[T any]() Middleware[T] {
	return func(next acemq.Handler[T]) acemq.Handler[T] {
		return func(ctx context.Context, m acemq.Message[T]) (ack acemq.Ack) {
			defer func() {
				if p := recover(); p != nil {
					ack = acemq.Reject(acemq.Fatalf("acemq: the handler panicked on message %s: %v", m.Envelope.ID, p))
				}
			}()
			return next(ctx, m)
		}
	}
}
