package acemq

import (
	"fmt"
)

// RetryableError marks a failure worth another attempt: the consumer sends a
// message whose decode or handling failed with one round its retry policy
// instead of parking or dead-lettering it (a claim-check store that timed
// out, a registry that could not be reached). An unmarked error is already
// retryable; the mark says so explicitly. A fatal mark anywhere in the chain
// still wins (see IsRetryable).
type RetryableError struct {
	Err error
}

// Error returns the wrapped error's text ("no reason given" for none).
func (e *RetryableError) Error() string {
	if e.Err == nil {
		return "no reason given"
	}
	return e.Err.Error()
}

// Unwrap returns the wrapped error.
func (e *RetryableError) Unwrap() error { return e.Err }

// Retryable marks err as worth another attempt. Retryable(nil) returns nil.
func Retryable(err error) error {
	if err == nil {
		return nil
	}
	return &RetryableError{Err: err}
}

// Retryablef formats an error like fmt.Errorf (including %w) and marks it
// worth another attempt.
func Retryablef(format string, args ...any) error {
	return &RetryableError{Err: fmt.Errorf(format, args...)}
}

// IsRetryable reports whether err is worth another attempt: it is non-nil and
// not marked fatal anywhere in its chain. It is the inverse of IsFatal for a
// non-nil error, so Retryable(Fatal(x)) is not retryable.
func IsRetryable(err error) bool { return err != nil && !IsFatal(err) }

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
