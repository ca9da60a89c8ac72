package toml

// shape is what a byte scan of a TOML body finds: how deeply it nests and
// how many values it holds.
type shape struct {
	depth    int // deepest nesting: open arrays and inline tables plus the current key's segments
	elements int // keys, key segments, array items and tables
}

// scan measures body in one pass without allocating beyond its bracket
// stack, stopping as soon as the depth passes maxDepth or the elements pass
// maxElements (negative: no limit). Strings and comments are skipped;
// dots count as nesting only in keys and table headers, where "a.b.c = 1"
// is three tables deep as "a = {b = {c = 1}}" is.
func scan(body []byte, maxDepth, maxElements int) shape {
	s := tomlScan{b: body, key: true}
	for s.i < len(s.b) {
		s.step()
		if maxDepth >= 0 && s.depth > maxDepth || maxElements >= 0 && s.elements > maxElements {
			break
		}
	}
	return s.shape
}

type tomlScan struct {
	shape
	b     []byte
	i     int
	stack []byte // the open '[' (array) and '{' (inline table)
	key   bool   // reading a key (before '=')
	dots  int    // segments of the current key so far, less one
}

func (s *tomlScan) step() {
	c := s.b[s.i]
	switch {
	case c == '#':
		s.skipTo('\n')
		return
	case c == '"' || c == '\'':
		s.skipString(c)
	case c == '\n':
		if len(s.stack) == 0 {
			s.key, s.dots = true, 0
		}
	case c == '[' && s.key && len(s.stack) == 0:
		s.header()
		return
	default:
		s.punct(c)
	}
	s.i++
}

// punct reads one byte outside strings and comments.
func (s *tomlScan) punct(c byte) {
	switch c {
	case '.':
		if s.key {
			s.dots++
			s.elements++
			s.at(len(s.stack) + s.dots + 1)
		}
	case '=':
		s.key, s.dots = false, 0
		s.elements++
	case ',':
		s.elements++
		s.key, s.dots = s.top() == '{', 0
	case '[', '{':
		s.stack = append(s.stack, c)
		s.elements++
		s.key, s.dots = c == '{', 0
		s.at(len(s.stack))
	case ']', '}':
		if len(s.stack) > 0 {
			s.stack = s.stack[:len(s.stack)-1]
		}
		s.key = false
	}
}

// header reads a table header ([a.b] or [[a.b]]) starting at s.i.
func (s *tomlScan) header() {
	s.elements++
	depth := 1
	for s.i++; s.i < len(s.b) && s.b[s.i] != '\n'; s.i++ {
		switch c := s.b[s.i]; c {
		case '"', '\'':
			s.skipString(c)
		case '.':
			depth++
			s.elements++
			s.at(depth)
		case '#':
			s.skipTo('\n')
			return
		}
	}
}

func (s *tomlScan) at(depth int) { s.depth = max(s.depth, depth) }

func (s *tomlScan) top() byte {
	if len(s.stack) == 0 {
		return 0
	}
	return s.stack[len(s.stack)-1]
}

// skipTo moves s to the next c (or the end), which step then reads.
func (s *tomlScan) skipTo(c byte) {
	for s.i < len(s.b) && s.b[s.i] != c {
		s.i++
	}
}

// skipString moves s to the last quote of the string opening at s.i: basic
// ("), literal ('), or their multi-line forms (""" and ”').
func (s *tomlScan) skipString(q byte) {
	if s.i+2 < len(s.b) && s.b[s.i+1] == q && s.b[s.i+2] == q {
		s.skipMultiline(q)
		return
	}
	for s.i++; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '\n':
			s.i-- // an unclosed string: step reads the line break
			return
		case c == '\\' && q == '"':
			s.i++
		case c == q:
			return
		}
	}
}

func (s *tomlScan) skipMultiline(q byte) {
	for s.i += 3; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '\\' && q == '"':
			s.i++
		case c == q && s.i+2 < len(s.b) && s.b[s.i+1] == q && s.b[s.i+2] == q:
			s.i += 2
			for s.i+1 < len(s.b) && s.b[s.i+1] == q { // up to two more quotes belong to the content
				s.i++
			}
			return
		}
	}
}
