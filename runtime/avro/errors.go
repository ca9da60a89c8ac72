package avro

import (
	"fmt"
	"strings"
)

// wrapError adds context to an error that may already carry the "acemq: "
// prefix, so the prefix appears once; errors.Is and errors.As see err.
type wrapError struct {
	msg string
	err error
}

// Error returns the context, then err's text without its prefix.
func (e *wrapError) Error() string { return e.msg }

// Unwrap returns the wrapped error.
func (e *wrapError) Unwrap() error { return e.err }

// wrapf returns "acemq: <format>: <err without its acemq: prefix>".
func wrapf(err error, format string, args ...any) error {
	msg := "acemq: " + fmt.Sprintf(format, args...) + ": " + strings.TrimPrefix(err.Error(), "acemq: ")
	return &wrapError{msg: msg, err: err}
}
