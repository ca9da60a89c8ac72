// Package patterns holds the messaging patterns built on runtime/acemq:
// handler middleware (Chain, WithTimeout, WithRecovery, WithLogging,
// WithIdempotency) and typed request/reply (RPC) that interoperates with the
// AceMQ family.
//
// Middleware wraps one handler; the first listed is outermost:
//
//	handler := patterns.Chain(handle,
//	    patterns.WithTimeout[OrderPlaced](10*time.Second), // Retry when the deadline passes
//	    patterns.WithIdempotency[OrderPlaced](store))      // a duplicate is accepted unhandled
//
// A request travels like this:
//
//	Requester.Do ─ envelope (correlation, acemq-reply-to, acemq-deadline)
//	  → publish interceptors → codec → reply channel (direct reply-to)
//	  → broker → responder queue → Serve: consume interceptors → decode
//	  → deadline check → handler(ctx with the caller's deadline)
//	  → reply (publish interceptors, correlation-id) → reply address
//	  → Requester: matched by correlation id → decode, or declared error
//
// On RabbitMQ a Requester uses direct reply-to (amq.rabbitmq.reply-to) on a
// channel of its own, and publishes its requests on that channel, as the
// broker requires; memory:// has the equivalent. ReplyTo(queue) uses a named
// reply queue instead (the family's way), and a transport without the
// driver.ReplyTransport seam gets an exclusive, auto-delete acemq-reply-<uuid>
// queue.
//
// The caller's deadline (its ctx, or Timeout, whichever is sooner) becomes
// the request's AMQP expiration and the acemq-deadline header; the handler's
// ctx carries it; a request whose deadline passed before it was picked up is
// dropped unhandled. A handler error declared with NewError reaches the caller
// as that error (acemq-error-code); any other error reaches the caller as an
// opaque ErrResponderFailed that never carries the handler's text, and the
// request is dead-lettered on the responder's side. Every failure reply
// carries the family's acemq-error header, and a body the RPC's codec reads
// (JSON's and YAML's null, else the response's zero value) under the codec's
// content type, since some family requesters (Python's) decode every reply
// before they read its headers; a requester also reads the empty
// application/octet-stream body earlier versions sent. A failure without a
// code whose acemq-error text names a declared error as its class ("NotFound"
// or "NotFound: <text>", as Python writes) is that declared error.
package patterns
