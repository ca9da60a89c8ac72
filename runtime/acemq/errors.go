package acemq

import (
	"errors"
	"fmt"
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
	"github.com/acemq/acemq-gen/runtime/internal/batchfail"
)

// ErrClosed is returned by operations on a closed connection.
var ErrClosed = errors.New("acemq: the connection is closed")

// ErrUnroutable matches (errors.Is) a *PublishFailedError for a mandatory
// message that reached no queue.
var ErrUnroutable = errors.New("acemq: the message reached no queue")

// ErrDrainTimeout matches (errors.Is) a *DrainTimeoutError.
var ErrDrainTimeout = errors.New("acemq: the consumer did not drain in time")

// PublishFailedError is a publish the broker did not accept: a mandatory
// message that reached no queue (Unroutable, with the broker's reason in Err,
// such as "312 NO_ROUTE"), or one the broker or the transport refused.
type PublishFailedError struct {
	MessageID  string
	Exchange   string
	RoutingKey string
	Unroutable bool
	Err        error
}

// Error renders the failure, naming the message and where it was going.
func (e *PublishFailedError) Error() string {
	if e.Unroutable {
		return fmt.Sprintf("acemq: message %s to exchange %q with key %q reached no queue: %s",
			e.MessageID, e.Exchange, e.RoutingKey, unprefixed(e.Err))
	}
	return fmt.Sprintf("acemq: cannot publish message %s to %s: %s", e.MessageID, e.destination(), unprefixed(e.Err))
}

func (e *PublishFailedError) destination() string {
	if e.Exchange == "" {
		return fmt.Sprintf("queue %q through the default exchange", e.RoutingKey)
	}
	return fmt.Sprintf("exchange %q with key %q", e.Exchange, e.RoutingKey)
}

// Unwrap returns the broker's or the transport's error.
func (e *PublishFailedError) Unwrap() error { return e.Err }

// Is reports a match with ErrUnroutable for an unroutable message.
func (e *PublishFailedError) Is(target error) bool {
	return target == ErrUnroutable && e.Unroutable
}

// BatchPublishFailedError is a SendAll in which some messages were not
// confirmed. Errors holds each failure in payload order; First is Errors[0].
type BatchPublishFailedError struct {
	Total     int
	Confirmed int
	Failed    int
	First     error
	Errors    []error
}

// Error renders the counts and the first failure, in the family's words.
func (e *BatchPublishFailedError) Error() string {
	return fmt.Sprintf("%d of %d messages were not confirmed; %d were. The first failure was: %s",
		e.Failed, e.Total, e.Confirmed, e.First)
}

// Unwrap returns the first failure.
func (e *BatchPublishFailedError) Unwrap() error { return e.First }

func init() { batchfail.New = batchError } // for runtime/otel and the other runtime packages

// batchError returns a *BatchPublishFailedError for the failures in errs
// (one entry per payload, nil for a success), or nil when there are none.
func batchError(errs []error) error {
	e := &BatchPublishFailedError{Total: len(errs)}
	for _, err := range errs {
		if err != nil {
			e.Errors = append(e.Errors, err)
		}
	}
	if len(e.Errors) == 0 {
		return nil
	}
	e.Failed, e.Confirmed, e.First = len(e.Errors), len(errs)-len(e.Errors), e.Errors[0]
	return e
}

// DrainTimeoutError is returned by Consumer.Close when handlers were still
// running at the DrainTimeout; their contexts were cancelled and their
// messages return to the queue. It matches ErrDrainTimeout.
type DrainTimeoutError struct {
	Queue    string
	Stranded int
}

// Error names the queue and how many handlers were still running.
func (e *DrainTimeoutError) Error() string {
	return fmt.Sprintf("acemq: the consumer of %q did not drain in time; %d handler(s) were still running and were cancelled",
		e.Queue, e.Stranded)
}

// Is reports a match with ErrDrainTimeout.
func (e *DrainTimeoutError) Is(target error) bool { return target == ErrDrainTimeout }

// prefixedError wraps err under msg, which carries the acemq: prefix, without
// repeating the prefix err may carry itself: errors are prefixed once.
type prefixedError struct {
	msg string
	err error
}

// Error renders msg, then err without its own acemq: prefix.
func (e *prefixedError) Error() string {
	return e.msg + ": " + unprefixed(e.err)
}

// unprefixed renders err without a leading acemq: prefix ("<nil>" for nil).
func unprefixed(err error) string {
	if err == nil {
		return "<nil>"
	}
	return strings.TrimPrefix(err.Error(), "acemq: ")
}

// Unwrap returns the wrapped error.
func (e *prefixedError) Unwrap() error { return e.err }

// wrapf wraps err like fmt.Errorf(format+": %w", args..., err), keeping a
// single acemq: prefix.
func wrapf(err error, format string, args ...any) error {
	return &prefixedError{msg: fmt.Sprintf(format, args...), err: err}
}

// The errors a transport returns are declared in runtime/acemq/driver, where
// transports build them; these names keep them reachable here, for
// errors.Is and errors.As.

// ErrBrokerRefused matches (errors.Is) a publish the broker refused (a nack,
// or a message it would not take at all): sending it again is refused
// again (driver.ErrBrokerRefused).
var ErrBrokerRefused = driver.ErrBrokerRefused

// ErrOutcomeUnknown matches (errors.Is) a publish written to the broker but
// not confirmed: it may or may not have been delivered
// (driver.ErrOutcomeUnknown).
var ErrOutcomeUnknown = driver.ErrOutcomeUnknown

// UnconfirmedError is a publish written whose confirm had not come when its
// context ended; it matches ErrOutcomeUnknown (driver.UnconfirmedError).
type UnconfirmedError = driver.UnconfirmedError

// FrameTooLargeError is a publish refused before writing because a frame
// would exceed the connection's frame_max; it matches ErrBrokerRefused
// (driver.FrameTooLargeError).
type FrameTooLargeError = driver.FrameTooLargeError

// ConnectionBlockedError is the broker blocking the connection (a memory or
// disk alarm); IsBlocked matches it (driver.ConnectionBlockedError).
type ConnectionBlockedError = driver.ConnectionBlockedError

// PublishingPausedError is a publish that waited for a blocked connection
// until its context ended, not written; IsBlocked matches it
// (driver.PublishingPausedError).
type PublishingPausedError = driver.PublishingPausedError

// TransportError is the broker or the network failing rather than the
// message being wrong; transports build it with driver.Transportf
// (driver.TransportError).
type TransportError = driver.TransportError
