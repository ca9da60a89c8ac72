package patterns

import "github.com/acemq/acemq-gen/runtime/acemq"

// Middleware wraps a handler: it sees the message on its way in, can change
// the context or message the handler gets, and sees (and may change) the Ack
// that comes back. Middleware is one consumer's business; cross-cutting
// policy for a whole connection belongs in an acemq.ConsumeInterceptor.
//
// A delivery passes through a chain like this:
//
//	engine → mw[0] → mw[1] → … → handler
//	engine ← mw[0] ← mw[1] ← … ← Ack
type Middleware[T any] func(acemq.Handler[T]) acemq.Handler[T]

// Chain wraps h in mw, the first listed outermost: Chain(h, a, b) is
// a(b(h)), so a sees what b decided. A nil Middleware is skipped. The result
// is as safe for concurrent use as h and the middleware are; every built-in
// middleware is.
func Chain[T any](h acemq.Handler[T], mw ...Middleware[T]) acemq.Handler[T] {
	for i := len(mw) - 1; i >= 0; i-- {
		if mw[i] != nil {
			h = mw[i](h)
		}
	}
	return h
}
