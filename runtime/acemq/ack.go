package acemq

import "time"

// ackKind is what a handler asks the engine to do with its message.
type ackKind uint8

const (
	ackAccept ackKind = iota
	ackRetry
	ackReject
	ackPark
	ackInProgress
)

var ackNames = [...]string{
	ackAccept: "accept", ackRetry: "retry", ackReject: "reject", ackPark: "park", ackInProgress: "in_progress",
}

// DefaultInProgressDelay is the wait InProgress uses when it is given none.
const DefaultInProgressDelay = 5 * time.Second

// Ack is a handler's settlement request: what the engine should do with the
// message it handled. Build one with Accept, Retry, Reject, Park or
// InProgress; the zero Ack is Accept(). A value, safe to copy and share.
type Ack struct {
	kind  ackKind
	err   error
	delay time.Duration
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

// InProgress says someone else is handling the message right now (an
// idempotency claim another consumer holds): the engine waits delay in the
// consumer, as a retry wait does, republishes the message to its queue with
// its attempt unchanged and acknowledges the delivery. It never spends an
// attempt and never dead-letters. A delay of zero or less means
// DefaultInProgressDelay.
func InProgress(delay time.Duration) Ack {
	if delay <= 0 {
		delay = DefaultInProgressDelay
	}
	return Ack{kind: ackInProgress, delay: delay}
}

// Err returns the error the Ack was built with (nil for Accept and
// InProgress).
func (a Ack) Err() error { return a.err }

// Delay returns the wait an InProgress Ack asks for; zero for every other
// Ack.
func (a Ack) Delay() time.Duration { return a.delay }

// String returns accept, retry, reject, park or in_progress.
func (a Ack) String() string { return ackNames[a.kind] }

// IsRetry reports whether the Ack asks for a retry.
func (a Ack) IsRetry() bool { return a.kind == ackRetry }

// IsInProgress reports whether the Ack is InProgress.
func (a Ack) IsInProgress() bool { return a.kind == ackInProgress }
