package acemq

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// Default decode limits. They hold a 2 GB process decoding several messages
// at once: a body is read at most MaxBody bytes long, which RabbitMQ's own
// default max_message_size (128 MiB) would otherwise allow twice over; no
// format the family writes nests a contract deeper than a few levels, so 100
// leaves room while keeping a recursive parser's stack and any per-level
// cost small; a million values (keys, items, elements, tokens) is a batch
// far larger than any contract message, and decodes in well under a second
// and a few hundred MB in the worst format (XML's element tree).
const (
	DefaultMaxBody     = 64 << 20
	DefaultMaxDepth    = 100
	DefaultMaxElements = 1_000_000
)

// DecodeLimits bound what a codec reads from one message body, checked by a
// cheap scan before the format's parser allocates, so a hostile body (a
// nesting bomb, a width bomb, an oversized body) is a fatal decode error —
// the consumer parks it with the reason "could not be decoded: acemq:
// <format>: <limit>" — instead of exhausting memory or time. A zero field
// means the process default (see SetDecodeLimits); a negative one means no
// limit. Every codec of this module applies the limits: JSON, text, bytes,
// YAML, TOML, XML, Avro (both modes) and the encrypted wrapper (to the
// ciphertext and to the plaintext it hands on).
type DecodeLimits struct {
	// MaxBody is the most bytes a body may have. Default 64 MiB.
	MaxBody int
	// MaxDepth is how deeply objects, lists, tables or elements may nest.
	// Default 100.
	MaxDepth int
	// MaxElements is the most values (object keys, list items, elements,
	// tokens) a body may hold in all. Default 1,000,000.
	MaxElements int
}

var processLimits atomic.Pointer[DecodeLimits]

// DefaultDecodeLimits returns the built-in limits: 64 MiB, depth 100, one
// million elements.
func DefaultDecodeLimits() DecodeLimits {
	return DecodeLimits{MaxBody: DefaultMaxBody, MaxDepth: DefaultMaxDepth, MaxElements: DefaultMaxElements}
}

// SetDecodeLimits replaces the process-wide limits every codec applies
// unless it was given its own; zero fields of l take the built-in defaults.
// Call it at start-up, before consuming. Safe for concurrent use.
func SetDecodeLimits(l DecodeLimits) {
	l = l.over(DefaultDecodeLimits())
	processLimits.Store(&l)
}

// ProcessDecodeLimits returns the process-wide limits (the built-in defaults
// until SetDecodeLimits). Safe for concurrent use.
func ProcessDecodeLimits() DecodeLimits {
	if l := processLimits.Load(); l != nil {
		return *l
	}
	return DefaultDecodeLimits()
}

// Resolve returns l with each zero field taken from the process-wide
// limits: what a codec holding l applies.
func (l DecodeLimits) Resolve() DecodeLimits { return l.over(ProcessDecodeLimits()) }

func (l DecodeLimits) over(base DecodeLimits) DecodeLimits {
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

// CheckBody returns a fatal *LimitError when body is longer than l.MaxBody.
func (l DecodeLimits) CheckBody(format string, body []byte) error {
	if l.MaxBody >= 0 && len(body) > l.MaxBody {
		return l.Over(format, LimitBody)
	}
	return nil
}

// TooDeep reports whether depth is over l.MaxDepth.
func (l DecodeLimits) TooDeep(depth int) bool { return l.MaxDepth >= 0 && depth > l.MaxDepth }

// TooMany reports whether n values are over l.MaxElements.
func (l DecodeLimits) TooMany(n int) bool { return l.MaxElements >= 0 && n > l.MaxElements }

// The limits a LimitError names.
const (
	LimitBody     = "body"
	LimitDepth    = "depth"
	LimitElements = "elements"
)

// ErrDecodeLimit is what every *LimitError matches with errors.Is.
var ErrDecodeLimit = errors.New("acemq: a message is over a decode limit")

// LimitError is a body refused for being over one of its codec's
// DecodeLimits. It reads "acemq: yaml: nesting deeper than 100" (or "body
// larger than N bytes", "more than N elements"); errors.Is(err,
// ErrDecodeLimit) holds. A codec returns it marked Fatal.
type LimitError struct {
	Format string // the codec's format: json, yaml, toml, xml, avro, text, bytes, encrypted
	Limit  string // LimitBody, LimitDepth or LimitElements
	Max    int    // the limit's value
}

// Error names the format and the limit.
func (e *LimitError) Error() string {
	switch e.Limit {
	case LimitBody:
		return fmt.Sprintf("acemq: %s: body larger than %d bytes", e.Format, e.Max)
	case LimitDepth:
		return fmt.Sprintf("acemq: %s: nesting deeper than %d", e.Format, e.Max)
	}
	return fmt.Sprintf("acemq: %s: more than %d elements", e.Format, e.Max)
}

// Is reports whether target is ErrDecodeLimit.
func (e *LimitError) Is(target error) bool { return target == ErrDecodeLimit }

// Over returns the fatal *LimitError for format and limit at l's value.
func (l DecodeLimits) Over(format, limit string) error {
	max := l.MaxElements
	switch limit {
	case LimitBody:
		max = l.MaxBody
	case LimitDepth:
		max = l.MaxDepth
	}
	return Fatal(&LimitError{Format: format, Limit: limit, Max: max})
}
