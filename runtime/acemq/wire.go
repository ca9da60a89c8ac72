package acemq

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// EnvelopeFromWire reads the envelope of a received message from its headers,
// routing key and AMQP message-id. Strings may arrive as []byte and integers
// as any integer width, a float or a decimal string; a value that cannot be
// read counts as absent. Absent, the ID falls back to messageID and then to
// a fresh UUID, Type to routingKey, Version and Attempt to 1, CorrelationID
// to the ID and FirstSeen to now; route position and id count only with a
// route. Every x-acemq-* header, known or not, is left out of Headers, which
// is never nil. headers is not modified.
func EnvelopeFromWire(headers map[string]any, routingKey, messageID string) Envelope {
	var env Envelope
	for name, v := range headers {
		if !isReserved(name) {
			env.putAppHeader(name, v)
			continue
		}
		if !env.readWireString(name, v) {
			env.readWireNumber(name, v)
		}
	}
	env.ID = firstNonEmpty(env.ID, messageID)
	env.Type = firstNonEmpty(env.Type, routingKey)
	env.fillWireDefaults()
	return env
}

// putAppHeader adds an application header read from the wire, making the
// map on the first one (unsized: most messages carry a few application
// headers beside many reserved ones, and up to 8 a map needs no table).
func (e *Envelope) putAppHeader(name string, v any) {
	if e.Headers == nil {
		e.Headers = map[string]any{}
	}
	e.Headers[name] = v
}

// readWireString reads the reserved header name when it is one of the
// string-valued ones, reporting whether it was.
func (e *Envelope) readWireString(name string, v any) bool {
	var dst *string
	switch name {
	case semconv.HeaderID:
		dst = &e.ID
	case semconv.HeaderType:
		dst = &e.Type
	case semconv.HeaderCorrelation:
		dst = &e.CorrelationID
	case semconv.HeaderCausation:
		dst = &e.CausationID
	case semconv.HeaderOrigin:
		dst = &e.Origin
	case semconv.HeaderError:
		dst = &e.Error
	case semconv.HeaderClaim:
		dst = &e.Claim
	case semconv.HeaderRoute:
		dst = &e.Route
	case semconv.HeaderRouteID:
		dst = &e.RouteID
	default:
		return false
	}
	*dst = wireStringValue(v)
	return true
}

// readWireNumber reads the reserved header name when it is one of the
// numeric ones (an unreadable version or attempt stays 0 until the
// defaults); any other reserved header is ignored.
func (e *Envelope) readWireNumber(name string, v any) {
	switch name {
	case semconv.HeaderVersion:
		e.Version = positiveInt(v)
	case semconv.HeaderAttempt:
		e.Attempt = positiveInt(v)
	case semconv.HeaderFirstSeen:
		e.FirstSeen = wireTime(v)
	case semconv.HeaderRoutePosition:
		e.RoutePosition = int(wireInt(v))
	}
}

// positiveInt reads an integer header; 0 when it is unreadable or below 1.
func positiveInt(v any) int {
	if n := wireInt(v); n >= 1 {
		return int(n)
	}
	return 0
}

func (e *Envelope) fillWireDefaults() {
	if e.Headers == nil {
		e.Headers = map[string]any{}
	}
	fill(&e.Version, 1)
	fill(&e.Attempt, 1)
	if e.ID == "" {
		e.ID = NewUUID()
	}
	if e.CorrelationID == "" {
		e.CorrelationID = e.ID
	}
	if e.FirstSeen.IsZero() {
		e.FirstSeen = nowMillis()
	}
	if e.Route == "" || e.RoutePosition < 0 {
		e.RoutePosition = 0
	}
	if e.Route == "" {
		e.RouteID = ""
	}
}

// ToWire renders e as the headers table of a publish: the reserved headers
// of FAMILY-SPEC §2.2 (integers as int64, FirstSeen in epoch milliseconds;
// causation, origin, error, claim and route-id omitted when empty; the route
// headers only with a route) and the application headers, except any in the
// reserved namespace. The map is new on every call.
func (e Envelope) ToWire() map[string]any {
	h := make(map[string]any, len(e.Headers)+e.wireFields())
	e.putWire(h, wireBoxes{})
	return h
}

// putWire writes what ToWire renders into h, an empty map: a publisher
// fills the table it hands the transport straight from the envelope, with
// the values it boxed once in b.
func (e *Envelope) putWire(h map[string]any, b wireBoxes) {
	for k, v := range e.Headers {
		if !isReserved(k) {
			h[k] = v
		}
	}
	id := any(e.ID)
	h[semconv.HeaderID] = id
	h[semconv.HeaderType] = b.typ.of(e.Type)
	h[semconv.HeaderVersion] = int64(e.Version)
	h[semconv.HeaderCorrelation] = id
	if e.CorrelationID != e.ID {
		h[semconv.HeaderCorrelation] = e.CorrelationID
	}
	h[semconv.HeaderAttempt] = int64(e.Attempt)
	if !e.FirstSeen.IsZero() {
		h[semconv.HeaderFirstSeen] = boxMillis(e.FirstSeen.UnixMilli())
	}
	putIfSet(h, semconv.HeaderCausation, e.CausationID)
	if e.Origin != "" {
		h[semconv.HeaderOrigin] = b.origin.of(e.Origin)
	}
	putIfSet(h, semconv.HeaderError, e.Error)
	putIfSet(h, semconv.HeaderClaim, e.Claim)
	e.putRoute(h)
}

// wireFields counts the reserved headers ToWire writes for e, so that its
// map is made at its final size (up to 8 entries, a map needs no table).
func (e *Envelope) wireFields() int {
	n := 5 // id, type, version, correlation, attempt
	for _, s := range [...]string{e.CausationID, e.Origin, e.Error, e.Claim} {
		if s != "" {
			n++
		}
	}
	if !e.FirstSeen.IsZero() {
		n++
	}
	if e.Route != "" {
		n += 2 + min(len(e.RouteID), 1)
	}
	return n
}

func (e *Envelope) putRoute(h map[string]any) {
	if e.Route == "" {
		return
	}
	h[semconv.HeaderRoute] = e.Route
	h[semconv.HeaderRoutePosition] = int64(e.RoutePosition)
	putIfSet(h, semconv.HeaderRouteID, e.RouteID)
}

func putIfSet(h map[string]any, name, value string) {
	if value != "" {
		h[name] = value
	}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// wireString reads a string header sent as string or []byte; "" otherwise.
func wireString(headers map[string]any, name string) string {
	return wireStringValue(headers[name])
}

// wireStringValue reads a string sent as string or []byte; "" otherwise.
func wireStringValue(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case []byte:
		return string(s)
	}
	return ""
}

// wireInt reads an integer sent as any integer width, a float with no
// fraction, or a decimal string or bytes; 0 when it is none of those.
func wireInt(v any) int64 {
	switch n := v.(type) {
	case int:
		return int64(n)
	case int8:
		return int64(n)
	case int16:
		return int64(n)
	case int32:
		return int64(n)
	case int64:
		return n
	}
	return wireUint(v)
}

func wireUint(v any) int64 {
	switch n := v.(type) {
	case uint:
		return clampUint(uint64(n))
	case uint8:
		return int64(n)
	case uint16:
		return int64(n)
	case uint32:
		return int64(n)
	case uint64:
		return clampUint(n)
	}
	return wireOther(v)
}

func wireOther(v any) int64 {
	switch n := v.(type) {
	case float32:
		return floatInt(float64(n))
	case float64:
		return floatInt(n)
	case string:
		return decimalInt(n)
	case []byte:
		return decimalInt(string(n))
	}
	return 0
}

func clampUint(n uint64) int64 {
	if n > math.MaxInt64 {
		return 0
	}
	return int64(n)
}

func floatInt(f float64) int64 {
	if f != math.Trunc(f) || math.Abs(f) >= math.MaxInt64 {
		return 0
	}
	return int64(f)
}

func decimalInt(s string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// wireTime reads an epoch-milliseconds header (or an AMQP timestamp);
// zero when absent or unreadable.
func wireTime(v any) time.Time {
	if t, ok := v.(time.Time); ok {
		return t.UTC().Truncate(time.Millisecond)
	}
	ms := wireInt(v)
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
