package patterns

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// ErrRequestTimedOut matches (errors.Is) the error of a request whose
// deadline passed before its reply arrived; that error matches
// context.DeadlineExceeded too. Its text is the family's:
// "acemq: no reply arrived before the deadline after 5s (correlation 9f2c…)".
var ErrRequestTimedOut = errors.New("acemq: no reply arrived before the deadline")

// ErrResponderFailed matches (errors.Is) a failure reply that is not a
// declared error: the responder's handler failed, and its text stayed on the
// responder's side.
var ErrResponderFailed = errors.New("acemq: the responder failed")

// ErrRequesterClosed is returned by Do once the requester (or client) is closed.
var ErrRequesterClosed = errors.New("acemq: the requester is closed")

// TimeoutError is a request that got no reply before its deadline. It
// matches ErrRequestTimedOut and context.DeadlineExceeded.
type TimeoutError struct {
	// After is how long the caller was prepared to wait.
	After time.Duration
	// CorrelationID identifies the request; a reply that arrives later is
	// dropped and counted by Requester.Late.
	CorrelationID string
}

// Error renders the family's wording.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("acemq: no reply arrived before the deadline after %s (correlation %s)",
		e.After.Round(time.Millisecond), e.CorrelationID)
}

// Is matches ErrRequestTimedOut and context.DeadlineExceeded.
func (e *TimeoutError) Is(target error) bool {
	return target == ErrRequestTimedOut || target == context.DeadlineExceeded
}

// DeclaredError is a failure an RPC declares in its contract (errors:
// [NotFound]): a handler returns it (wrapped or not), the reply carries its
// code in acemq-error-code, and the caller gets an error for which
// errors.Is(err, theDeclaredError) holds. Two DeclaredErrors with the same
// code match each other. Immutable; safe to share.
type DeclaredError struct {
	code string
}

// NewError returns the declared error with code, an UpperCamel name such
// as NotFound. Its Error() is the code in words with the code after it:
// NewError("NotFound").Error() == "acemq: not found (NotFound)".
func NewError(code string) *DeclaredError { return &DeclaredError{code: code} }

// Code returns the declared name, such as NotFound.
func (e *DeclaredError) Code() string { return e.code }

// Error renders the code in words, then the code.
func (e *DeclaredError) Error() string {
	return fmt.Sprintf("acemq: %s (%s)", inWords(e.code), e.code)
}

// Is matches every DeclaredError with the same code.
func (e *DeclaredError) Is(target error) bool {
	t, ok := target.(*DeclaredError)
	return ok && t != nil && t.code == e.code
}

// inWords splits an UpperCamel name into lower-case words: NotFound → not
// found, HTTPTimeout → http timeout.
func inWords(code string) string {
	rs := []rune(code)
	var b strings.Builder
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) && startsWord(rs, i) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// startsWord reports whether the capital at rs[i] begins a new word.
func startsWord(rs []rune, i int) bool {
	return !unicode.IsUpper(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))
}

// ResponderError is a failure reply that names no declared error. Text is
// the reply's acemq-error header: our responders write the generic "the
// responder failed (message <id>)", never the handler's text; a family
// responder may write more (Python: "<exception class>: <text>"). It matches
// ErrResponderFailed.
type ResponderError struct {
	Text string
}

// Error renders the failure in the family's words.
func (e *ResponderError) Error() string {
	if strings.HasPrefix(e.Text, "the responder failed") {
		return "acemq: " + e.Text
	}
	return "acemq: the responder failed: " + e.Text
}

// Is matches ErrResponderFailed.
func (e *ResponderError) Is(target error) bool { return target == ErrResponderFailed }

// genericFailure is the acemq-error text of a failure that is not declared.
func genericFailure(messageID string) string {
	return fmt.Sprintf("the responder failed (message %s)", messageID)
}
