package acemq

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// The reserved envelope headers (FAMILY-SPEC §2.2).
const (
	HeaderID            = "x-acemq-id"
	HeaderType          = "x-acemq-type"
	HeaderVersion       = "x-acemq-version"
	HeaderCorrelation   = "x-acemq-correlation"
	HeaderCausation     = "x-acemq-causation"
	HeaderAttempt       = "x-acemq-attempt"
	HeaderFirstSeen     = "x-acemq-first-seen"
	HeaderOrigin        = "x-acemq-origin"
	HeaderError         = "x-acemq-error"
	HeaderClaim         = "x-acemq-claim"
	HeaderRoute         = "x-acemq-route"
	HeaderRoutePosition = "x-acemq-route-position"
	HeaderRouteID       = "x-acemq-route-id"
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
	env := Envelope{
		ID:            firstNonEmpty(wireString(headers, HeaderID), messageID),
		Type:          firstNonEmpty(wireString(headers, HeaderType), routingKey),
		Version:       wireIntOr(headers, HeaderVersion, 1),
		CorrelationID: wireString(headers, HeaderCorrelation),
		CausationID:   wireString(headers, HeaderCausation),
		Attempt:       wireIntOr(headers, HeaderAttempt, 1),
		FirstSeen:     wireTime(headers[HeaderFirstSeen]),
		Origin:        wireString(headers, HeaderOrigin),
		Error:         wireString(headers, HeaderError),
		Claim:         wireString(headers, HeaderClaim),
		Route:         wireString(headers, HeaderRoute),
		RoutePosition: int(wireInt(headers[HeaderRoutePosition])),
		RouteID:       wireString(headers, HeaderRouteID),
		Headers:       appHeadersWithRoom(headers, 0),
	}
	env.fillWireDefaults()
	return env
}

func (e *Envelope) fillWireDefaults() {
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
	h := appHeadersWithRoom(e.Headers, 13)
	h[HeaderID] = e.ID
	h[HeaderType] = e.Type
	h[HeaderVersion] = int64(e.Version)
	h[HeaderCorrelation] = e.CorrelationID
	h[HeaderAttempt] = int64(e.Attempt)
	if !e.FirstSeen.IsZero() {
		h[HeaderFirstSeen] = e.FirstSeen.UnixMilli()
	}
	putIfSet(h, HeaderCausation, e.CausationID)
	putIfSet(h, HeaderOrigin, e.Origin)
	putIfSet(h, HeaderError, e.Error)
	putIfSet(h, HeaderClaim, e.Claim)
	e.putRoute(h)
	return h
}

func (e Envelope) putRoute(h map[string]any) {
	if e.Route == "" {
		return
	}
	h[HeaderRoute] = e.Route
	h[HeaderRoutePosition] = int64(e.RoutePosition)
	putIfSet(h, HeaderRouteID, e.RouteID)
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

// appHeadersWithRoom copies the headers outside the reserved namespace into a
// map with room for extra more; never nil.
func appHeadersWithRoom(headers map[string]any, extra int) map[string]any {
	out := make(map[string]any, len(headers)+extra)
	for k, v := range headers {
		if !isReserved(k) {
			out[k] = v
		}
	}
	return out
}

// wireString reads a string header sent as string or []byte; "" otherwise.
func wireString(headers map[string]any, name string) string {
	switch v := headers[name].(type) {
	case string:
		return v
	case []byte:
		return string(v)
	}
	return ""
}

// wireIntOr reads an integer header, returning def when it is absent,
// unreadable or below 1.
func wireIntOr(headers map[string]any, name string, def int) int {
	if n := wireInt(headers[name]); n >= 1 {
		return int(n)
	}
	return def
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
