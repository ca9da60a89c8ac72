package acemq

import (
	"errors"
	"fmt"
)

// FatalError marks an error that retrying cannot fix: a message whose
// handling fails with one is dead-lettered at once instead of retried.
type FatalError struct {
	Err error
}

// Error returns the wrapped error's text.
func (e *FatalError) Error() string {
	if e.Err == nil {
		return "no reason given"
	}
	return e.Err.Error()
}

// Unwrap returns the wrapped error.
func (e *FatalError) Unwrap() error { return e.Err }

// Fatal marks err as fatal. Fatal(nil) returns nil.
func Fatal(err error) error {
	if err == nil {
		return nil
	}
	return &FatalError{Err: err}
}

// Fatalf formats an error like fmt.Errorf (including %w) and marks it fatal.
func Fatalf(format string, args ...any) error {
	return &FatalError{Err: fmt.Errorf(format, args...)}
}

// IsFatal reports whether err, or any error it wraps, is marked fatal.
func IsFatal(err error) bool {
	var f *FatalError
	return errors.As(err, &f)
}
