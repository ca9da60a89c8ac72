package acemq

import "github.com/acemq/acemq-gen/runtime/internal/safecall"

// A panic recovered from code plugged into the runtime (a codec, an
// interceptor, a hook, a handler, a health check) is a *safecall.PanicError:
// its text is "<what> panicked: <value>", and a panic value that is an error
// is unwrapped.

// guard calls f, turning a panic in it into a *safecall.PanicError naming what.
func guard(what string, f func() error) error { return safecall.Err(what, f) }

// guarded calls f and returns what it returns; when f panics, the error
// names what() (called only then, so that a name built from the codec costs
// nothing on the way that does not panic) and v is zero. The interceptor and
// outcome-hook calls of intercept.go, which run several times per message,
// recover inline instead, into the same *safecall.PanicError.
func guarded[T any](what func() string, f func() (T, error)) (T, error) {
	return safecall.CallNamed(what, f)
}

// panicked returns the value of the panic err is, when guard or guarded
// returned err for a panic.
func panicked(err error) (any, bool) {
	if pe, ok := err.(*safecall.PanicError); ok {
		return pe.Value, true
	}
	return nil, false
}
