package acemq

import "fmt"

// panicError is a panic recovered from code plugged into the runtime (a
// codec, an interceptor, a hook, a handler, a health check): its text is
// "<what> panicked: <value>". A panic value that is an error is unwrapped.
type panicError struct {
	what  string
	value any
}

func (e *panicError) Error() string { return fmt.Sprintf("%s panicked: %v", e.what, e.value) }

func (e *panicError) Unwrap() error {
	err, _ := e.value.(error)
	return err
}

// guard calls f, turning a panic in it into a *panicError naming what.
func guard(what string, f func() error) error {
	_, err := guarded(func() string { return what }, func() (struct{}, error) { return struct{}{}, f() })
	return err
}

// guarded calls f and returns what it returns; when f panics, the error is
// a *panicError naming what() (called only then, so that a name built from
// the codec costs nothing on the way that does not panic) and v is zero.
// The interceptor and outcome-hook calls of intercept.go, which run several
// times per message, recover inline instead, into the same *panicError.
func guarded[T any](what func() string, f func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			v, err = zero, &panicError{what: what(), value: p}
		}
	}()
	return f()
}

// panicked returns the value of the panic err is, when guard or guarded
// returned err for a panic.
func panicked(err error) (any, bool) {
	if pe, ok := err.(*panicError); ok {
		return pe.value, true
	}
	return nil, false
}
