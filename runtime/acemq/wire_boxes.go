package acemq

import "sync/atomic"

// Putting a string or a large integer into a map[string]any boxes it, which
// allocates. The values here are boxed once and shared: a boxed value is
// never modified, so any number of tables may hold the same box.

// wireBoxes are the header values a publisher writes on nearly every
// message, boxed once when it is made: the routing key (the default Type)
// and the connection's origin. The zero value boxes nothing in advance.
type wireBoxes struct{ typ, origin boxedString }

// newWireBoxes boxes typ and origin.
func newWireBoxes(typ, origin string) wireBoxes {
	return wireBoxes{typ: boxString(typ), origin: boxString(origin)}
}

// boxedString is a string and its box.
type boxedString struct {
	s string
	v any
}

func boxString(s string) boxedString { return boxedString{s: s, v: s} }

// of returns s boxed: b's box when s is b's string.
func (b boxedString) of(s string) any {
	if b.v != nil && s == b.s {
		return b.v
	}
	return s
}

// boxedMillis is an epoch-milliseconds time and its box.
type boxedMillis struct {
	ms int64
	v  any
}

// lastMillis is the most recent first-seen time boxed: every message
// published within the same millisecond shares it.
var lastMillis atomic.Pointer[boxedMillis]

// boxMillis returns ms boxed, sharing the box of the last call when it was
// for the same millisecond.
func boxMillis(ms int64) any {
	if b := lastMillis.Load(); b != nil && b.ms == ms {
		return b.v
	}
	b := &boxedMillis{ms: ms, v: ms}
	lastMillis.Store(b)
	return b.v
}
