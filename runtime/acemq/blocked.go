package acemq

import (
	"errors"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

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
	br, ok := c.transport.(driver.BlockedReporter)
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
	br, ok := c.transport.(driver.BlockedReporter)
	if !ok {
		return false, false
	}
	_, blocked = br.Blocked()
	return blocked, true
}

// BlockedReason returns the broker's reason while it blocks the connection
// (such as "low on memory"), and "" otherwise. Safe for concurrent use.
func (c *Conn) BlockedReason() string {
	if br, ok := c.transport.(driver.BlockedReporter); ok {
		if reason, blocked := br.Blocked(); blocked {
			return reason
		}
	}
	return ""
}
