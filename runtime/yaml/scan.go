package yaml

// scanDepth returns how deeply body nests as a byte scan sees it, stopping
// once past max (max < 0: no limit): a flow collection's [ and { each add a
// level, and in block context every column a node starts to the right of
// the enclosing one adds a level ("- - - x" on one line is three). It skips
// quoted scalars, comments and block scalars (| and >), where brackets and
// indicators are text. It reads the bytes once and allocates only its
// indentation stack, so a nesting bomb is refused before the lexer, whose
// tokens cost some 400 bytes each, sees it.
func scanDepth(body []byte, max int) int {
	s := depthScan{b: body, start: true, lineStart: true}
	for s.i < len(s.b) && (max < 0 || s.deepest <= max) {
		s.step()
	}
	return s.deepest
}

type depthScan struct {
	b         []byte
	i         int
	cols      []int // block context's indentation stack
	flow      int
	deepest   int
	start     bool // a node may begin here
	lineStart bool // only blanks since the line began
	lineCol   int  // the current line's indentation
}

func (s *depthScan) step() {
	c := s.b[s.i]
	switch {
	case c == '\n':
		s.start, s.lineStart, s.lineCol = true, true, 0
	case c == ' ' || c == '\t' || c == '\r':
		if s.lineStart && c == ' ' {
			s.lineCol++
		}
	case c == '#' && (s.i == 0 || isBlank(s.b[s.i-1])):
		s.skipLine()
		return
	default:
		s.node(c)
	}
	s.i++
}

// node reads the non-blank byte c.
func (s *depthScan) node(c byte) {
	if s.lineStart {
		s.lineStart = false
		s.block(s.lineCol)
	}
	switch {
	case s.start && (c == '"' || c == '\''):
		s.skipQuoted(c)
		s.start = false
	case s.start && (c == '!' || c == '&'):
		s.skipWord() // a tag or an anchor: the node follows
	case s.start && s.flow == 0 && (c == '|' || c == '>'):
		s.skipBlockScalar()
	case c == '[' || c == '{':
		if s.start || s.flow > 0 {
			s.flow++
			s.deepest = max(s.deepest, len(s.cols)+s.flow)
		}
		s.start = s.flow > 0
	case (c == ']' || c == '}') && s.flow > 0:
		s.flow--
		s.start = false
	case c == ',' && s.flow > 0:
		s.start = true
	case s.indicator(c):
		s.start = true
		if s.flow == 0 && c != ':' {
			s.block(s.column() + 2) // "- x": x starts a node two columns on
		}
	default:
		s.start = false
	}
}

// indicator reports whether c at s.i is "-", "?" or ":" used as an
// indicator: followed by a blank or the end, or in a flow collection by a
// flow indicator, or (":") right after a quoted key.
func (s *depthScan) indicator(c byte) bool {
	if c != '-' && c != '?' && c != ':' {
		return false
	}
	if s.i+1 == len(s.b) || isBlank(s.b[s.i+1]) || s.b[s.i+1] == '\n' {
		return true
	}
	if s.flow == 0 {
		return false
	}
	next := s.b[s.i+1]
	return next == ',' || next == '[' || next == ']' || next == '{' || next == '}' ||
		c == ':' && s.i > 0 && (s.b[s.i-1] == '"' || s.b[s.i-1] == '\'')
}

// column returns s.i's column on its line.
func (s *depthScan) column() int {
	col := 0
	for j := s.i - 1; j >= 0 && s.b[j] != '\n'; j-- {
		col++
	}
	return col
}

// block records a node starting at column c in block context.
func (s *depthScan) block(c int) {
	if s.flow > 0 {
		return
	}
	for len(s.cols) > 0 && s.cols[len(s.cols)-1] > c {
		s.cols = s.cols[:len(s.cols)-1]
	}
	if len(s.cols) == 0 || s.cols[len(s.cols)-1] < c {
		s.cols = append(s.cols, c)
	}
	s.deepest = max(s.deepest, len(s.cols)+s.flow)
}

// skipLine moves s to the line break ending the current line.
func (s *depthScan) skipLine() {
	for s.i < len(s.b) && s.b[s.i] != '\n' {
		s.i++
	}
}

// skipQuoted moves s to the quote closing the scalar opened at s.i.
func (s *depthScan) skipQuoted(q byte) {
	for s.i++; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case q == '"' && c == '\\':
			s.i++
		case c == q && q == '\'' && s.i+1 < len(s.b) && s.b[s.i+1] == '\'':
			s.i++ // '' is a quote inside a single-quoted scalar
		case c == q:
			return
		}
	}
}

// skipWord moves s to the last byte of a tag or anchor.
func (s *depthScan) skipWord() {
	for s.i+1 < len(s.b) {
		c := s.b[s.i+1]
		if isBlank(c) || c == '\n' || s.flow > 0 && (c == ',' || c == '[' || c == ']' || c == '{' || c == '}') {
			return
		}
		s.i++
	}
}

// skipBlockScalar moves s past a block scalar's lines: those after the
// header line that are blank or indented more than the header's line.
func (s *depthScan) skipBlockScalar() {
	s.skipLine()
	for s.i < len(s.b) {
		j, indent := s.i+1, 0
		for j < len(s.b) && s.b[j] == ' ' {
			j, indent = j+1, indent+1
		}
		if j < len(s.b) && s.b[j] != '\n' && s.b[j] != '\r' && indent <= s.lineCol {
			s.i-- // step moves on to the line break before the next node
			return
		}
		s.i = j
		s.skipLine()
	}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }
