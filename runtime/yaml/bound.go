package yaml

import (
	"errors"
	"io"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
	"github.com/acemq/acemq-gen/runtime/internal/errtext"
	goyaml "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/scanner"
	"github.com/goccy/go-yaml/token"
)

// format names YAML in a LimitError.
const format = "yaml"

// parseBounded returns the one document body holds, its nodes checked
// against lim, or nil when body holds none. goccy/go-yaml's parser and
// decoder cost the square of the nesting depth and expand aliases without
// bound, so the body is measured first, in steps that each stay linear: the
// bytes (size, a count of the values they can hold), then the tokens
// (nesting), then the tree (values and depth with every alias expanded).
func parseBounded(body []byte, lim acemq.DecodeLimits) (ast.Node, error) {
	if err := lim.CheckBody(format, body); err != nil {
		return nil, err
	}
	if lim.TooDeep(scanDepth(body, lim.MaxDepth)) {
		return nil, lim.Over(format, decodelimit.Depth)
	}
	if lim.TooMany(countIndicators(body)) {
		return nil, lim.Over(format, decodelimit.Elements)
	}
	tokens, err := tokenize(body, lim)
	if err != nil {
		return nil, err
	}
	file, err := parser.Parse(tokens, 0)
	if err != nil {
		return nil, err
	}
	doc, err := oneDocument(file)
	if doc == nil || err != nil {
		return nil, err
	}
	m := measurer{lim: lim, anchors: map[string]extent{}}
	m.measure(doc, 0)
	return doc, m.err
}

var errDocuments = errors.New("the message holds more than one YAML document; a message is one document")

// oneDocument returns the body of file's only document, nil when it has
// none, or an error when it has more than one (a decoder would read the
// first and drop the rest).
func oneDocument(file *ast.File) (ast.Node, error) {
	var body ast.Node
	for _, d := range file.Docs {
		if d == nil || d.Body == nil {
			continue
		}
		if body != nil {
			return nil, errDocuments
		}
		body = d.Body
	}
	return body, nil
}

// countIndicators counts the bytes that can begin a value: a flow
// collection's [ { and , and a block's "- " and ": " (before a space or a
// line end) and line breaks. Every value but the first follows one, so the
// count bounds the values (and the tokens) a body holds.
func countIndicators(body []byte) int {
	n := 0
	for i, c := range body {
		switch c {
		case '[', '{', ',', '\n':
			n++
		case '-', ':', '?':
			if i+1 == len(body) || body[i+1] == ' ' || body[i+1] == '\n' || body[i+1] == '\r' || body[i+1] == '\t' {
				n++
			}
		}
	}
	return n
}

// tokenize lexes body a line or so at a time, stopping at the first token
// that nests deeper than lim.MaxDepth or passes lim.MaxElements tokens, so a
// nesting bomb costs the tokens of its first levels only.
func tokenize(body []byte, lim acemq.DecodeLimits) (token.Tokens, error) {
	var s scanner.Scanner
	s.Init(string(body))
	var tokens token.Tokens
	var n nesting
	for {
		sub, err := s.Scan()
		if err == io.EOF {
			return tokens, nil
		}
		for _, t := range sub {
			if lim.TooDeep(n.step(t)) {
				return nil, lim.Over(format, decodelimit.Depth)
			}
			tokens.Add(t)
		}
		if lim.TooMany(len(tokens) / 2) {
			return nil, lim.Over(format, decodelimit.Elements)
		}
	}
}

// nesting follows how deeply tokens nest: a flow collection's brackets each
// add a level; in block context every column a sequence entry or mapping
// key starts to the right of the enclosing one adds a level ("- - - x" on
// one line is three).
type nesting struct {
	cols []int // block context's indentation stack
	flow int
	prev *token.Token
}

// step takes t and returns the depth after it.
func (n *nesting) step(t *token.Token) int {
	switch t.Type {
	case token.SequenceStartType, token.MappingStartType:
		n.flow++
	case token.SequenceEndType, token.MappingEndType:
		n.flow = max(n.flow-1, 0)
	case token.SequenceEntryType, token.MappingKeyType:
		n.cols = indent(n.cols, t, n.flow)
	case token.MappingValueType:
		if n.prev != nil {
			n.cols = indent(n.cols, n.prev, n.flow)
		}
	case token.DocumentHeaderType:
		n.cols, n.flow = n.cols[:0], 0
	}
	n.prev = t
	return len(n.cols) + n.flow
}

// indent updates the block indentation stack for a node starting at t.
func indent(cols []int, t *token.Token, flow int) []int {
	if flow > 0 || t.Position == nil {
		return cols
	}
	c := t.Position.Column
	for len(cols) > 0 && cols[len(cols)-1] > c {
		cols = cols[:len(cols)-1]
	}
	if len(cols) == 0 || cols[len(cols)-1] < c {
		cols = append(cols, c)
	}
	return cols
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// extent is the size of a subtree with its aliases expanded: its values and
// its height.
type extent struct{ values, height int }

// measurer walks a document as a decoder will see it, every alias expanded
// to its anchor's extent, and stops at the first limit passed.
type measurer struct {
	lim     acemq.DecodeLimits
	anchors map[string]extent
	total   int
	err     error
}

func (m *measurer) measure(n ast.Node, depth int) extent {
	if m.err != nil || n == nil {
		return extent{}
	}
	if m.lim.TooDeep(depth) {
		m.err = m.lim.Over(format, decodelimit.Depth)
		return extent{}
	}
	e := m.children(n, depth)
	return m.count(e, depth)
}

// count adds a node of extent e at depth to the total.
func (m *measurer) count(e extent, depth int) extent {
	switch {
	case m.lim.TooDeep(depth + e.height):
		m.err = m.lim.Over(format, decodelimit.Depth)
	case m.lim.TooMany(m.total):
		m.err = m.lim.Over(format, decodelimit.Elements)
	}
	return e
}

// children returns n's extent, walking what it holds.
func (m *measurer) children(n ast.Node, depth int) extent {
	switch n := n.(type) {
	case *ast.MappingNode:
		return m.sum(depth, len(n.Values), func(i int) ast.Node { return n.Values[i] })
	case *ast.SequenceNode:
		return m.sum(depth, len(n.Values), func(i int) ast.Node { return n.Values[i] })
	case *ast.MappingValueNode:
		k, v := m.measure(n.Key, depth), m.measure(n.Value, depth)
		return extent{values: k.values + v.values, height: maxInt(k.height, v.height)}
	case *ast.MappingKeyNode:
		return m.measure(n.Value, depth)
	case *ast.TagNode:
		return m.measure(n.Value, depth)
	case *ast.AnchorNode:
		e := m.measure(n.Value, depth)
		m.anchors[anchorName(n.Name)] = e
		return e
	case *ast.AliasNode:
		e := m.anchors[anchorName(n.Value)]
		m.total += e.values // a decoder reads the anchor's value again here
		return e
	case *ast.CommentGroupNode, *ast.CommentNode:
		return extent{}
	}
	m.total++
	return extent{values: 1}
}

// sum measures the n children of a collection at depth, each one level
// deeper, and returns their extent with the collection's own value.
func (m *measurer) sum(depth, n int, child func(int) ast.Node) extent {
	e := extent{values: 1}
	m.total++
	for i := 0; i < n && m.err == nil; i++ {
		c := m.measure(child(i), depth+1)
		e.values += c.values
		e.height = maxInt(e.height, c.height+1)
	}
	return e
}

func anchorName(n ast.Node) string {
	if n == nil || n.GetToken() == nil {
		return ""
	}
	return n.GetToken().Value
}

// decodeError wraps a parse or decode error of a body in the codec's text.
func decodeError(dst any, err error) error {
	if err == nil {
		return nil
	}
	var le *acemq.LimitError
	if errors.As(err, &le) {
		return err
	}
	var ye goyaml.Error
	if errors.As(err, &ye) {
		err = &sourceless{text: ye.FormatError(false, false), err: err}
	}
	return acemq.Fatalf("acemq: this message is not YAML that reads as %T: %w", dst, errtext.Bound(err))
}

// sourceless is a goccy/go-yaml error without the source lines its text
// quotes (the whole line it failed on, which a bomb makes huge).
type sourceless struct {
	text string
	err  error
}

func (s *sourceless) Error() string { return s.text }
func (s *sourceless) Unwrap() error { return s.err }
