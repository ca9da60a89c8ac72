package acemq

import "github.com/acemq/acemq-gen/runtime/internal/decodelimit"

// Default decode limits. They hold a 2 GB process decoding several messages
// at once: a body is read at most MaxBody bytes long, which RabbitMQ's own
// default max_message_size (128 MiB) would otherwise allow twice over; no
// format the family writes nests a contract deeper than a few levels, so 100
// leaves room while keeping a recursive parser's stack and any per-level
// cost small; a million values (keys, items, elements, tokens) is a batch
// far larger than any contract message, and decodes in well under a second
// and a few hundred MB in the worst format (XML's element tree).
const (
	DefaultMaxBody     = decodelimit.DefaultMaxBody
	DefaultMaxDepth    = decodelimit.DefaultMaxDepth
	DefaultMaxElements = decodelimit.DefaultMaxElements
)

// DecodeLimits bound what a codec reads from one message body, checked by a
// cheap scan before the format's parser allocates, so a hostile body (a
// nesting bomb, a width bomb, an oversized body) is a fatal decode error —
// the consumer parks it with the reason "could not be decoded: acemq:
// <format>: <limit>" — instead of exhausting memory or time. It has three
// fields: MaxBody, the most bytes a body may have (default 64 MiB);
// MaxDepth, how deeply objects, lists, tables or elements may nest (default
// 100); MaxElements, the most values (object keys, list items, elements,
// tokens) a body may hold in all (default 1,000,000). A zero field means the
// process default (see SetDecodeLimits); a negative one means no limit.
// Every codec of this module applies the limits: JSON, text, bytes, YAML,
// TOML, XML, Avro (both modes) and the encrypted wrapper (to the ciphertext
// and to the plaintext it hands on). Its methods are for codec authors.
type DecodeLimits = decodelimit.Limits

// DefaultDecodeLimits returns the built-in limits: 64 MiB, depth 100, one
// million elements.
func DefaultDecodeLimits() DecodeLimits { return decodelimit.Default() }

// SetDecodeLimits replaces the process-wide limits every codec applies
// unless it was given its own; zero fields of l take the built-in defaults.
// Call it at start-up, before consuming. Safe for concurrent use.
func SetDecodeLimits(l DecodeLimits) { decodelimit.Set(l) }

// ErrDecodeLimit is what every *LimitError matches with errors.Is.
var ErrDecodeLimit = decodelimit.ErrLimit

// LimitError is a body refused for being over one of its codec's
// DecodeLimits: Format is the codec's format (json, yaml, toml, xml, avro,
// text, bytes, encrypted), Limit "body", "depth" or "elements", Max the
// limit's value. It reads "acemq: yaml: nesting deeper than 100" (or "body
// larger than N bytes", "more than N elements"); errors.Is(err,
// ErrDecodeLimit) holds. A codec returns it marked Fatal.
type LimitError = decodelimit.Error

func init() { decodelimit.MarkFatal = Fatal }
