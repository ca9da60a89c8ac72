package acemq

import (
	"context"
	"time"
)

// Settlement actions: what the engine did with a message.
const (
	ActionAccepted     string = "accepted"
	ActionRetried      string = "retried"
	ActionDeadLettered string = "dead_lettered"
	ActionParked       string = "parked"
	ActionInProgress   string = "in_progress"
	// ActionKept: the message was to be dead-lettered or parked but could
	// not be set aside (its set-aside queue missing and not declarable, or
	// the republish not confirmed), so it was returned to its queue, after a
	// back-off, to be handled again; Reason says why.
	ActionKept string = "kept"
)

// Settlement is what the engine decided for one delivery (FAMILY-SPEC §1.8).
// For a retry, Envelope is already the next attempt's and Delay is the wait
// actually chosen (jittered in the consumer, exact on a broker rung). For
// InProgress, Envelope keeps its attempt and Delay is the wait asked for,
// exactly. Reason is the dead-letter or park reason, or for ActionKept why
// the message could not be set aside and what it was to be; empty otherwise.
type Settlement struct {
	Queue    string
	Action   string
	Outcome  string
	Envelope Envelope
	Delay    time.Duration
	Reason   string
}

// settleKey carries a delivery's *settleSlot on the handler's context.
type settleKey struct{}

// settleSlot holds the OnSettled callback of one delivery.
type settleSlot struct {
	fn func(Settlement)
}

// OnSettled registers fn to run once the engine has decided what to do with
// the message being handled, on the handler's goroutine, before the broker
// is told. Call it from a handler with the ctx the handler was given. Every
// registration runs, the last registered first (like defer), also when a
// later one panics: where the family lets a second call replace the first, a
// tracing middleware and the handler it wraps can both listen here. It
// returns false, and fn never runs, when ctx is not a handler's (a handler
// called directly, outside a consumer).
func OnSettled(ctx context.Context, fn func(Settlement)) bool {
	slot, ok := ctx.Value(settleKey{}).(*settleSlot)
	if !ok {
		return false
	}
	if prev := slot.fn; prev != nil {
		slot.fn = func(s Settlement) {
			defer prev(s)
			fn(s)
		}
	} else {
		slot.fn = fn
	}
	return true
}
