package driver

import (
	"errors"
	"fmt"
	"strings"
)

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
// acemq.IsBlocked and wraps the context's error.
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

// ErrBrokerRefused matches (errors.Is) the error of a publish that was
// refused for certain and not delivered: the broker nacked it, the broker
// closed the channel in answer to it (404 NOT_FOUND for a missing exchange,
// 406 PRECONDITION_FAILED for a message over max_message_size, 403
// ACCESS_REFUSED), or the transport found before writing that it cannot be
// sent at all (a *FrameTooLargeError). Sending the same message again is
// refused again; a transport does not resend it after a recovery. A
// Publisher reports it inside a *PublishFailedError.
var ErrBrokerRefused = errors.New("the broker refused it")

// ErrOutcomeUnknown matches (errors.Is) the error of a publish that was
// written to the broker but not confirmed: the channel or connection closed
// before the confirm, or the publish's context ended while it waited for it
// (perhaps while the broker blocked the connection). The message may or may
// not have been delivered; a caller that must not lose it sends it again
// (consumers deduplicate by message id). It never matches a publish that was
// not written, nor ErrBrokerRefused.
var ErrOutcomeUnknown = errors.New("it may or may not have been delivered")

// UnconfirmedError is the error of a publish written to the broker whose
// confirm had not come when the publish's context ended: it may or may not
// have been delivered (RabbitMQ delivers a message written just before it
// blocked the connection once the block lifts). Blocked holds the broker's
// reason when it was blocking the connection then ("" otherwise); Err is the
// context's error. It matches ErrOutcomeUnknown and Err, never acemq.IsBlocked: a
// *PublishingPausedError is a publish that was not written.
type UnconfirmedError struct {
	Blocked string
	Err     error
}

// Error says the outcome is unknown, and why the confirm did not come when
// the broker was blocking the connection.
func (e *UnconfirmedError) Error() string {
	if e.Blocked != "" {
		return fmt.Sprintf("stopped waiting for the broker's confirm while the broker blocked this connection (%s); "+
			"it was written and may or may not have been delivered: %v", e.Blocked, e.Err)
	}
	return fmt.Sprintf("stopped waiting for the broker's confirm; it was written and may or may not have been delivered: %v", e.Err)
}

// Unwrap returns ErrOutcomeUnknown and the context's error.
func (e *UnconfirmedError) Unwrap() []error { return []error{ErrOutcomeUnknown, e.Err} }

// FrameTooLargeError is a publish refused before writing because one of its
// AMQP frames would exceed the frame_max the connection negotiated with the
// broker (the broker would close the whole connection for it). Size is the
// frame's size in bytes, Limit the connection's frame_max. It matches
// ErrBrokerRefused.
type FrameTooLargeError struct {
	// Frame names the frame: "content header" (properties and headers).
	Frame string
	Size  int
	Limit int
}

// Error names the frame, its size and the limit.
func (e *FrameTooLargeError) Error() string {
	return fmt.Sprintf("the broker refused it: its %s frame would be %d bytes, over the connection's frame_max of %d bytes (headers too large)",
		e.Frame, e.Size, e.Limit)
}

// Is reports a match with ErrBrokerRefused.
func (e *FrameTooLargeError) Is(target error) bool { return target == ErrBrokerRefused }

// TransportError is the broker or the network failing, rather than the
// message being wrong: the same message may well succeed once the broker is
// back. Op says what was being attempted ("declare queue \"orders\"").
type TransportError struct {
	Op  string
	Err error
}

// Error renders "acemq: <op>: <err>", with err's own acemq: prefix dropped.
func (e *TransportError) Error() string {
	return fmt.Sprintf("acemq: %s: %s", e.Op, unprefixed(e.Err))
}

// Unwrap returns the transport's error.
func (e *TransportError) Unwrap() error { return e.Err }

// Transportf wraps err, a transport failure, with what was being attempted,
// formatted from format and args (the family's argument order: the error
// first). Transportf(nil, ...) returns nil.
func Transportf(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return &TransportError{Op: fmt.Sprintf(format, args...), Err: err}
}

// unprefixed is err's text without a leading "acemq: ".
func unprefixed(err error) string {
	if err == nil {
		return "<nil>"
	}
	return strings.TrimPrefix(err.Error(), "acemq: ")
}
