// Package safecall calls code a user plugged into a runtime package (an
// idempotency store, a schema registry) so that a panic in it becomes an
// error. It imports only the standard library, so runtime/acemq uses it too.
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
func Call[T any](what string, f func() (T, error)) (T, error) {
	return CallNamed(func() string { return what }, f)
}

// CallNamed is Call with the name built by what, which is called only when f
// panics (so that a name built from arguments costs nothing otherwise).
func CallNamed[T any](what func() string, f func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			v, err = zero, &PanicError{What: what(), Value: p}
		}
	}()
	return f()
}

// Err is Call for f returning only an error.
func Err(what string, f func() error) error {
	_, err := Call(what, func() (struct{}, error) { return struct{}{}, f() })
	return err
}
