package acemq

import (
	"errors"
	"fmt"
	"strings"

	"github.com/acemq/acemq-gen/runtime/internal/batchfail"
)

// ErrClosed is returned by operations on a closed connection.
var ErrClosed = errors.New("acemq: the connection is closed")

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
// context's error. It matches ErrOutcomeUnknown and Err, never IsBlocked: a
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
