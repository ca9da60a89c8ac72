package jsonimpl

// Reader reads the canonical shape of a generated record's JSON. Anything it
// does not read itself — or anything wrong — makes it slow: the generated
// decoder then hands the whole body to encoding/json.
type Reader struct {
	data  []byte
	pos   int
	depth int32
	slow  bool
}

// maxDepth is encoding/json's nesting limit: deeper, the reference errs.
const maxDepth = 10000

// giveUp marks r slow and returns false.
func (r *Reader) giveUp() bool {
	r.slow = true
	return false
}

// ws skips JSON whitespace.
func (r *Reader) ws() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// peek skips whitespace and returns the next byte, or 0 at the end.
func (r *Reader) peek() byte {
	r.ws()
	if r.pos >= len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

// eat consumes c if it is next.
func (r *Reader) eat(c byte) bool {
	if r.peek() == c {
		r.pos++
		return true
	}
	return false
}

// literal consumes the literal word (true, false, null).
func (r *Reader) literal(word string) bool {
	if r.peek() == word[0] && len(r.data)-r.pos >= len(word) && string(r.data[r.pos:r.pos+len(word)]) == word {
		r.pos += len(word)
		return true
	}
	return r.giveUp()
}

// null consumes a null if one is next.
func (r *Reader) null() bool {
	if r.peek() == 'n' {
		return r.literal("null")
	}
	return false
}

// stringSpan consumes a JSON string, checking its escapes, and returns it
// with its quotes; plain is true when it holds no escape and no byte
// outside printable ASCII, so its bytes are its value.
func (r *Reader) stringSpan() (span []byte, plain, ok bool) {
	if r.peek() != '"' {
		return nil, false, r.giveUp()
	}
	start, plain := r.pos, true
	for r.pos++; r.pos < len(r.data); r.pos++ {
		switch c := r.data[r.pos]; {
		case c == '"':
			r.pos++
			return r.data[start:r.pos], plain, true
		case c < 0x20:
			return nil, false, r.giveUp()
		case c == '\\':
			plain = false
			if !r.escape() {
				return nil, false, r.giveUp()
			}
		case c >= 0x80:
			plain = false
		}
	}
	return nil, false, r.giveUp()
}

// escape checks the escape at r.pos (a backslash) and leaves r.pos on its
// last byte.
func (r *Reader) escape() bool {
	if r.pos+1 >= len(r.data) {
		return false
	}
	r.pos++
	switch r.data[r.pos] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	case 'u':
		if r.pos+4 >= len(r.data) {
			return false
		}
		for _, c := range r.data[r.pos+1 : r.pos+5] {
			if !isHex(c) {
				return false
			}
		}
		r.pos += 4
		return true
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// number consumes a JSON number and returns it; integer is true when it
// has no fraction and no exponent.
func (r *Reader) number() (span []byte, integer, ok bool) {
	r.ws()
	start := r.pos
	r.eatByte('-')
	switch {
	case r.eatByte('0'):
	case r.digits() == 0:
		return nil, false, r.giveUp()
	}
	integer = true
	if r.eatByte('.') {
		integer = false
		if r.digits() == 0 {
			return nil, false, r.giveUp()
		}
	}
	if r.eatByte('e') || r.eatByte('E') {
		integer = false
		if !r.eatByte('+') {
			r.eatByte('-')
		}
		if r.digits() == 0 {
			return nil, false, r.giveUp()
		}
	}
	return r.data[start:r.pos], integer, true
}

// eatByte consumes c if it is the very next byte (no whitespace).
func (r *Reader) eatByte(c byte) bool {
	if r.pos < len(r.data) && r.data[r.pos] == c {
		r.pos++
		return true
	}
	return false
}

// digits consumes decimal digits and counts them.
func (r *Reader) digits() int {
	start := r.pos
	for r.pos < len(r.data) && '0' <= r.data[r.pos] && r.data[r.pos] <= '9' {
		r.pos++
	}
	return r.pos - start
}

// skip consumes one JSON value of any kind, checking it, and returns it.
func (r *Reader) skip() ([]byte, bool) {
	start := r.pos
	if r.peek() == 0 {
		return nil, r.giveUp()
	}
	start = r.pos
	var ok bool
	switch c := r.data[r.pos]; c {
	case '{', '[':
		ok = r.skipContainer(c)
	case '"':
		_, _, ok = r.stringSpan()
	case 't':
		ok = r.literal("true")
	case 'f':
		ok = r.literal("false")
	case 'n':
		ok = r.literal("null")
	default:
		_, _, ok = r.number()
	}
	return r.data[start:r.pos], ok
}

// skipContainer consumes an object or an array.
func (r *Reader) skipContainer(open byte) bool {
	if r.depth++; r.depth > maxDepth {
		return r.giveUp()
	}
	defer func() { r.depth-- }()
	r.pos++
	end := byte(']')
	if open == '{' {
		end = '}'
	}
	if r.eat(end) {
		return true
	}
	for {
		if open == '{' && !r.key() {
			return false
		}
		if _, ok := r.skip(); !ok {
			return false
		}
		if r.eat(end) {
			return true
		}
		if !r.eat(',') {
			return r.giveUp()
		}
	}
}

// key consumes an object key and its colon.
func (r *Reader) key() bool {
	if _, _, ok := r.stringSpan(); !ok {
		return false
	}
	return r.eat(':') || r.giveUp()
}

// end reports whether only whitespace is left.
func (r *Reader) end() bool {
	r.ws()
	return !r.slow && r.pos == len(r.data)
}
