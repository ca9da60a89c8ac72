package acemq

// ackKind is what a handler asks the engine to do with its message.
type ackKind uint8

const (
	ackAccept ackKind = iota
	ackRetry
	ackReject
	ackPark
)

var ackNames = [...]string{ackAccept: "accept", ackRetry: "retry", ackReject: "reject", ackPark: "park"}

// Ack is a handler's settlement request: what the engine should do with the
// message it handled. Build one with Accept, Retry, Reject or Park; the zero
// Ack is Accept(). A value, safe to copy and share.
type Ack struct {
	kind ackKind
	err  error
}

// Accept settles the message as handled: it is acknowledged.
func Accept() Ack { return Ack{} }

// Retry asks for the message to be tried again under the consumer's retry
// policy; once the policy gives up it is dead-lettered. Retry(Fatal(err))
// dead-letters at once.
func Retry(err error) Ack { return Ack{kind: ackRetry, err: err} }

// Reject dead-letters the message to {queue}.dlq without retrying it.
func Reject(err error) Ack { return Ack{kind: ackReject, err: err} }

// Park sets the message aside to {queue}.parked, for a person to look at.
func Park(err error) Ack { return Ack{kind: ackPark, err: err} }

// Err returns the error the Ack was built with (nil for Accept).
func (a Ack) Err() error { return a.err }

// String returns accept, retry, reject or park.
func (a Ack) String() string { return ackNames[a.kind] }

// IsRetry reports whether the Ack asks for a retry.
func (a Ack) IsRetry() bool { return a.kind == ackRetry }
