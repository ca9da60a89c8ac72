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
