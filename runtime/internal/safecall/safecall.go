// Package safecall calls code a user plugged into a runtime package (an
// idempotency store, a schema registry) so that a panic in it becomes an
// error. It is runtime/acemq's guard for the packages beside it: runtime/acemq
// imports only the standard library, so it keeps its own copy.
package safecall

import "fmt"

// PanicError is a recovered panic: Error is "<What> panicked: <Value>", and
// a Value that is an error is unwrapped.
type PanicError struct {
	What  string
	Value any
}

func (e *PanicError) Error() string { return fmt.Sprintf("%s panicked: %v", e.What, e.Value) }

// Unwrap returns Value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Call calls f and returns what it returns; when f panics, v is zero and err
// is a *PanicError naming what.
func Call[T any](what string, f func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			v, err = zero, &PanicError{What: what, Value: p}
		}
	}()
	return f()
}

// Err is Call for f returning only an error.
func Err(what string, f func() error) error {
	_, err := Call(what, func() (struct{}, error) { return struct{}{}, f() })
	return err
}
