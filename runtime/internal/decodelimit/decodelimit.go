// Package decodelimit holds the decode limits every codec of the module
// applies (acemq.DecodeLimits is an alias of Limits) and the helpers codec
// authors use to enforce them: Resolve, CheckBody, TooDeep, TooMany, Over
// and Process. It is for the module's codec packages (runtime/acemq,
// runtime/yaml, toml, xml, avro, crypto); applications set and read limits
// through package acemq. It imports only the standard library.
package decodelimit

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// The built-in limits (acemq.DefaultMaxBody, DefaultMaxDepth, DefaultMaxElements).
const (
	DefaultMaxBody     = 64 << 20
	DefaultMaxDepth    = 100
	DefaultMaxElements = 1_000_000
)

// The limits an Error names.
const (
	Body     = "body"
	Depth    = "depth"
	Elements = "elements"
)

// Limits bound what a codec reads from one message body (see
// acemq.DecodeLimits). A zero field means the process default; a negative
// one means no limit.
type Limits struct {
	// MaxBody is the most bytes a body may have. Default 64 MiB.
	MaxBody int
	// MaxDepth is how deeply objects, lists, tables or elements may nest.
	// Default 100.
	MaxDepth int
	// MaxElements is the most values (object keys, list items, elements,
	// tokens) a body may hold in all. Default 1,000,000.
	MaxElements int
}

// ErrLimit is what every *Error matches with errors.Is (acemq.ErrDecodeLimit).
var ErrLimit = errors.New("acemq: a message is over a decode limit")

// MarkFatal marks the error Over returns as fatal; package acemq sets it to
// acemq.Fatal when it is initialised, before any codec can run.
var MarkFatal = func(err error) error { return err }

var process atomic.Pointer[Limits]

// Default returns the built-in limits: 64 MiB, depth 100, one million elements.
func Default() Limits {
	return Limits{MaxBody: DefaultMaxBody, MaxDepth: DefaultMaxDepth, MaxElements: DefaultMaxElements}
}

// Set replaces the process-wide limits; zero fields of l take the built-in
// defaults. Safe for concurrent use.
func Set(l Limits) {
	l = l.over(Default())
	process.Store(&l)
}

// Process returns the process-wide limits (the built-in defaults until
// Set). Safe for concurrent use.
func Process() Limits {
	if l := process.Load(); l != nil {
		return *l
	}
	return Default()
}

// Resolve returns l with each zero field taken from the process-wide
// limits: what a codec holding l applies.
func (l Limits) Resolve() Limits { return l.over(Process()) }

// ResolveElements is l.Resolve for a codec whose parser costs too much per
// element for the process-wide MaxElements: when l sets none, it is at most
// ceiling (the codec's DefaultMaxElements).
func ResolveElements(l Limits, ceiling int) Limits {
	if l.MaxElements == 0 {
		l.MaxElements = min(Process().MaxElements, ceiling)
	}
	return l.Resolve()
}

func (l Limits) over(base Limits) Limits {
	if l.MaxBody == 0 {
		l.MaxBody = base.MaxBody
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = base.MaxDepth
	}
	if l.MaxElements == 0 {
		l.MaxElements = base.MaxElements
	}
	return l
}

// CheckBody returns a fatal *Error when body is longer than l.MaxBody.
func (l Limits) CheckBody(format string, body []byte) error {
	if l.MaxBody >= 0 && len(body) > l.MaxBody {
		return l.Over(format, Body)
	}
	return nil
}

// TooDeep reports whether depth is over l.MaxDepth.
func (l Limits) TooDeep(depth int) bool { return l.MaxDepth >= 0 && depth > l.MaxDepth }

// TooMany reports whether n values are over l.MaxElements.
func (l Limits) TooMany(n int) bool { return l.MaxElements >= 0 && n > l.MaxElements }

// Over returns the fatal *Error for format and limit at l's value.
func (l Limits) Over(format, limit string) error {
	max := l.MaxElements
	switch limit {
	case Body:
		max = l.MaxBody
	case Depth:
		max = l.MaxDepth
	}
	return MarkFatal(&Error{Format: format, Limit: limit, Max: max})
}

// Error is a body refused for being over one of its codec's limits
// (acemq.LimitError). It reads "acemq: yaml: nesting deeper than 100" (or
// "body larger than N bytes", "more than N elements"); errors.Is(err,
// ErrLimit) holds.
type Error struct {
	Format string // the codec's format: json, yaml, toml, xml, avro, text, bytes, encrypted
	Limit  string // "body", "depth" or "elements"
	Max    int    // the limit's value
}

// Error names the format and the limit.
func (e *Error) Error() string {
	switch e.Limit {
	case Body:
		return fmt.Sprintf("acemq: %s: body larger than %d bytes", e.Format, e.Max)
	case Depth:
		return fmt.Sprintf("acemq: %s: nesting deeper than %d", e.Format, e.Max)
	}
	return fmt.Sprintf("acemq: %s: more than %d elements", e.Format, e.Max)
}

// Is reports whether target is ErrLimit.
func (e *Error) Is(target error) bool { return target == ErrLimit }
