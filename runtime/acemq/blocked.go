package acemq

import (
	"errors"
	"fmt"
)

// BlockedReporter is an optional Transport seam: a transport whose broker
// can block the connection (RabbitMQ does when a memory or disk alarm is
// raised) reports it, so Health answers at once instead of probing a broker
// that stopped reading. Blocked returns the broker's reason and whether the
// connection is blocked now. Implementations must be safe for concurrent use
// and must not block.
type BlockedReporter interface {
	Blocked() (reason string, blocked bool)
}

// ConnectionBlockedError says the broker blocked the connection, with the
// broker's reason (such as "low on memory"). Transports report it when the
// block starts; it matches IsBlocked.
type ConnectionBlockedError struct {
	Reason string
}

// Error renders the broker's reason.
func (e *ConnectionBlockedError) Error() string {
	return fmt.Sprintf("acemq: the broker blocked this connection (%s)", e.Reason)
}

// PublishingPausedError is the error of a publish that waited for a blocked
// connection to be unblocked until its context ended; the message was not
// written (a message written whose confirm did not come is an
// *UnconfirmedError instead, matching ErrOutcomeUnknown). It matches
// IsBlocked and wraps the context's error.
type PublishingPausedError struct {
	Reason string
	Err    error
}

// Error renders the family's message with the broker's reason.
func (e *PublishingPausedError) Error() string {
	return fmt.Sprintf("acemq: publishing is paused because the broker blocked this connection (%s)", e.Reason)
}

// Unwrap returns the context's error (context.DeadlineExceeded or
// context.Canceled), or nil.
func (e *PublishingPausedError) Unwrap() error { return e.Err }

// IsBlocked reports whether err (anywhere in its chain) is a
// *PublishingPausedError or a *ConnectionBlockedError: the broker blocked the
// connection.
func IsBlocked(err error) bool {
	var paused *PublishingPausedError
	var blocked *ConnectionBlockedError
	return errors.As(err, &paused) || errors.As(err, &blocked)
}

// blockedReport fills r for a blocked connection and reports whether it was
// blocked: Health then answers up without a round trip, because the broker
// does not read from a blocked connection.
func (c *Conn) blockedReport(r *HealthReport) bool {
	br, ok := c.transport.(BlockedReporter)
	if !ok {
		return false
	}
	reason, blocked := br.Blocked()
	r.Parts["blocked"] = blocked
	if !blocked {
		return false
	}
	r.Parts["blockedReason"] = reason
	r.Detail = "the broker has blocked this connection; publishing is paused: " + reason
	return true
}

// Blocked reports whether the broker blocks the connection now, and whether
// that is known at all (known is false when the transport does not implement
// BlockedReporter; memory:// does not). Safe for concurrent use; never blocks.
func (c *Conn) Blocked() (blocked, known bool) {
	br, ok := c.transport.(BlockedReporter)
	if !ok {
		return false, false
	}
	_, blocked = br.Blocked()
	return blocked, true
}

// BlockedReason returns the broker's reason while it blocks the connection
// (such as "low on memory"), and "" otherwise. Safe for concurrent use.
func (c *Conn) BlockedReason() string {
	if br, ok := c.transport.(BlockedReporter); ok {
		if reason, blocked := br.Blocked(); blocked {
			return reason
		}
	}
	return ""
}
