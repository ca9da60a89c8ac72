package driver

import "context"

// AsyncPublisher is an optional Transport seam: a transport that can write a
// message now and let the caller wait for its confirm later, so that one
// goroutine keeps many publishes in flight. acemq.Publisher.SendAll uses it when
// the connection's transport implements it (memory:// and the RabbitMQ
// transport do); everything else uses Transport.Publish. Implementations
// must be safe for concurrent use.
type AsyncPublisher interface {
	// PublishAsync writes msg before it returns: the messages one goroutine
	// publishes reach the broker in the order of its calls. It waits, as
	// long as ctx allows, for the transport's bound on unconfirmed publishes
	// (RabbitMQ's MaxOutstandingPublishes) and, like Publish, for a blocked
	// or recovering connection. An error means the message was not written
	// (or, for a write that may have reached the broker, that its fate is
	// unknown), and the Confirmation is nil. The returned Confirmation must
	// be waited for; the bound on unconfirmed publishes does not depend on it.
	PublishAsync(ctx context.Context, exchange, key string, msg Outbound) (Confirmation, error)
}

// Confirmation is the pending outcome of one PublishAsync.
type Confirmation interface {
	// Wait returns what Publish would have returned for the message: its
	// result once the broker confirmed it (Routed false, with the reason,
	// when a mandatory message came back), or the error of a nack, of a
	// channel or connection lost before the confirm, or of ctx ending first
	// (the message may then still be confirmed). Safe to call more than once
	// and from several goroutines; once the outcome is known every call
	// returns the same.
	Wait(ctx context.Context) (PublishResult, error)
}

// settledConfirmation is a Confirmation whose outcome is known.
type settledConfirmation struct {
	res PublishResult
	err error
}

// Wait returns the outcome at once.
func (c settledConfirmation) Wait(context.Context) (PublishResult, error) { return c.res, c.err }

// ConfirmationOf returns a Confirmation already settled with res and err,
// for transports that know a publish's outcome when it is written (without
// confirms, or in memory). Its Wait ignores ctx.
func ConfirmationOf(res PublishResult, err error) Confirmation {
	return settledConfirmation{res: res, err: err}
}

// Settled reports whether c was made by ConfirmationOf and, if so, the
// outcome it holds, so that a caller can settle it without waiting.
func Settled(c Confirmation) (settled bool, res PublishResult, err error) {
	s, ok := c.(settledConfirmation)
	return ok, s.res, s.err
}
