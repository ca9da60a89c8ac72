package outbox

import (
	"encoding/base64"
	"time"
	"unicode/utf8"

	"github.com/acemq/acemq-gen/runtime/acemq/semconv"
)

// scanHeaders reads the headers column as PostgreSQL returns it without
// encoding/json: an object of typed scalar values whose strings have no
// escapes, which is every column a publisher's family headers make. ok is
// false for anything else (an array or a table value, an escaped string, a
// value that does not match its type, malformed JSON): decodeHeaders then
// reads the column the general way, and reports what is wrong with it.
func scanHeaders(raw []byte) (h map[string]any, ok bool) {
	s := scanner{b: raw}
	if !s.expect('{') {
		return nil, false
	}
	h = make(map[string]any, 12)
	if s.peek() == '}' {
		s.i++
		return h, s.end()
	}
	for {
		name, v, ok := s.member()
		if !ok {
			return nil, false
		}
		h[name] = v
		if s.expect('}') {
			return h, s.end()
		}
		if !s.expect(',') {
			return nil, false
		}
	}
}

// scanner walks a JSON text.
type scanner struct {
	b []byte
	i int
}

// skip passes white space.
func (s *scanner) skip() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\n' || s.b[s.i] == '\t' || s.b[s.i] == '\r') {
		s.i++
	}
}

// peek is the next byte after white space, 0 at the end.
func (s *scanner) peek() byte {
	s.skip()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// expect consumes c when it comes next.
func (s *scanner) expect(c byte) bool {
	if s.peek() != c {
		return false
	}
	s.i++
	return true
}

// end reports whether nothing but white space is left.
func (s *scanner) end() bool { return s.peek() == 0 && s.i == len(s.b) }

// str reads a string without escapes.
func (s *scanner) str() (string, bool) {
	if !s.expect('"') {
		return "", false
	}
	start, ascii := s.i, true
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			text := s.b[start : s.i-1]
			return string(text), ascii || utf8.Valid(text)
		case c == '\\' || c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// familyNames are the family's header names, so that a column's names are
// the constants rather than a string made for every one.
var familyNames = func() map[string]string {
	m := map[string]string{}
	for _, n := range []string{semconv.HeaderID, semconv.HeaderType, semconv.HeaderVersion, semconv.HeaderCorrelation,
		semconv.HeaderCausation, semconv.HeaderAttempt, semconv.HeaderFirstSeen, semconv.HeaderOrigin, semconv.HeaderError,
		semconv.HeaderClaim, semconv.HeaderRoute, semconv.HeaderRoutePosition, semconv.HeaderRouteID} {
		m[n] = n
	}
	return m
}()

// name reads a member's name: one of familyNames when it is one.
func (s *scanner) name() (string, bool) {
	start := s.i
	if s.peek() == '"' {
		end := s.i + 1
		for end < len(s.b) && s.b[end] != '"' && s.b[end] != '\\' {
			end++
		}
		if n, ok := familyNames[string(s.b[s.i+1:min(end, len(s.b))])]; ok && end < len(s.b) && s.b[end] == '"' {
			s.i = end + 1
			return n, true
		}
	}
	s.i = start
	return s.str()
}

// member reads `"name": typed value`.
func (s *scanner) member() (string, any, bool) {
	name, ok := s.name()
	if !ok || !s.expect(':') {
		return "", nil, false
	}
	v, ok := s.typed()
	return name, v, ok
}

// typed reads null or a one-member object naming the value's type.
func (s *scanner) typed() (any, bool) {
	if s.literal("null") {
		return nil, true
	}
	if !s.expect('{') {
		return nil, false
	}
	kind, ok := s.str()
	if !ok || !s.expect(':') {
		return nil, false
	}
	v, ok := s.value(kind)
	return v, ok && s.expect('}')
}

// literal consumes word when it comes next.
func (s *scanner) literal(word string) bool {
	s.skip()
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}

// value reads the value of a typed value of kind.
func (s *scanner) value(kind string) (any, bool) {
	switch kind {
	case "string":
		return s.str()
	case "bytes":
		text, ok := s.str()
		b, err := base64.StdEncoding.DecodeString(text)
		return b, ok && err == nil
	case "bool":
		if s.literal("true") {
			return true, true
		}
		return false, s.literal("false")
	case "time":
		text, ok := s.str()
		t, err := time.Parse(time.RFC3339Nano, text)
		return t, ok && err == nil
	}
	text, ok := s.numberText()
	if !ok {
		return nil, false
	}
	v, err := number(kind, text)
	return v, err == nil
}

// numberText reads a JSON number, or a string (how uint64 and the
// non-finite floats are stored).
func (s *scanner) numberText() (string, bool) {
	if s.peek() == '"' {
		return s.str()
	}
	start := s.i
	for s.i < len(s.b) && isNumberByte(s.b[s.i]) {
		s.i++
	}
	text := string(s.b[start:s.i])
	return text, validNumber(text)
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// validNumber reports whether t is a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(t string) bool {
	i := 0
	if i < len(t) && t[i] == '-' {
		i++
	}
	switch {
	case i < len(t) && t[i] == '0':
		i++
	case i < len(t) && t[i] >= '1' && t[i] <= '9':
		i = digits(t, i)
	default:
		return false
	}
	if i < len(t) && t[i] == '.' {
		if i = digits(t, i+1); t[i-1] == '.' {
			return false
		}
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		j := digits(t, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(t)
}

// digits returns the index after the digits of t from i.
func digits(t string, i int) int {
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i
}
