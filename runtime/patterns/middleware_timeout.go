package patterns

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// errHandlerTimedOut is the cause WithTimeout gives the context it cancels,
// so that its own deadline is told apart from an outer one.
var errHandlerTimedOut = errors.New("acemq: the handler's time is up")

// WithTimeout gives the handler a context cancelled d after the message
// arrives. When the handler returns after that deadline the message is
// retried, whatever the handler said, with
//
//	acemq: handling message <id> did not finish within <d>: context deadline exceeded
//
// (the error matches context.DeadlineExceeded). A handler that ignores its
// context still runs to its end: WithTimeout waits for it rather than letting
// a second copy of the message start beside it. An earlier deadline or a
// cancellation from outside (a consumer's drain) is not this timeout and
// leaves the handler's Ack alone. WithTimeout panics when d is not positive.
// Safe for concurrent use.
func WithTimeout[T any](d time.Duration) Middleware[T] {
	if d <= 0 {
		panic(fmt.Sprintf("acemq: WithTimeout needs a positive duration, got %s", d))
	}
	return func(next acemq.Handler[T]) acemq.Handler[T] {
		return func(ctx context.Context, m acemq.Message[T]) acemq.Ack {
			ctx, cancel := context.WithTimeoutCause(ctx, d, errHandlerTimedOut)
			defer cancel()
			ack := next(ctx, m)
			if context.Cause(ctx) == errHandlerTimedOut {
				return acemq.Retry(fmt.Errorf("acemq: handling message %s did not finish within %s: %w",
					m.Envelope.ID, d, context.DeadlineExceeded))
			}
			return ack
		}
	}
}
