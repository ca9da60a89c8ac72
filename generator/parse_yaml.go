package generator

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// yamlDoc reads one YAML file's syntax tree, reporting every problem it
// meets with the file's positions.
type yamlDoc struct {
	path  string
	d     *diags
	lines []int // the length in runes of each line, to keep positions inside the input
}

// entry is one key of a YAML mapping with its value.
type entry struct {
	key string
	pos Pos // of the key
	val ast.Node
}

// tokenError is what goccy/go-yaml's syntax errors implement.
type tokenError interface {
	GetToken() *token.Token
	GetMessage() string
}

// root parses data and returns the body of its single document, or nil after
// reporting why there is none.
func (y *yamlDoc) root(data []byte) ast.Node {
	if y.tooBig(data) {
		return nil
	}
	y.lines = lineLengths(data)
	tokens := lexer.Tokenize(string(data))
	if y.tooDeep(tokens) {
		return nil
	}
	f, err := parser.Parse(tokens, 0)
	if err != nil {
		y.syntaxError(err)
		return nil
	}
	if len(f.Docs) != 1 || f.Docs[0].Body == nil {
		y.d.errorf(Pos{File: y.path, Line: 1, Col: 1}, "a contract is one YAML document starting with `acemq: 1`")
		return nil
	}
	return f.Docs[0].Body
}

func (y *yamlDoc) syntaxError(err error) {
	var te tokenError
	if errors.As(err, &te) && te.GetToken() != nil {
		p := te.GetToken().Position
		y.d.errorf(y.clamp(Pos{File: y.path, Line: p.Line, Col: p.Column}), "invalid %s: %s", y.syntax(), y.tokenMessage(te.GetMessage()))
		return
	}
	y.d.errorf(Pos{File: y.path, Line: 1, Col: 1}, "invalid %s: %v", y.syntax(), err)
}

// duplicateKeyRE is goccy/go-yaml's message for a key given twice in one mapping.
var duplicateKeyRE = regexp.MustCompile(`^mapping key "(.*)" already defined at \[(\d+):(\d+)\]$`)

// tokenMessage is the parser's message, with the position of a key given
// twice written as every diagnostic writes positions: file:line:col.
func (y *yamlDoc) tokenMessage(msg string) string {
	m := duplicateKeyRE.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	return fmt.Sprintf("key %q is already given at %s", m[1], y.clamp(Pos{File: y.path, Line: line, Col: col}))
}

// syntax names the file's syntax in diagnostics: .avsc files are JSON.
func (y *yamlDoc) syntax() string {
	if strings.HasSuffix(y.path, ".avsc") {
		return "JSON"
	}
	return "YAML"
}

// pos returns the position of n's first token.
func (y *yamlDoc) pos(n ast.Node) Pos {
	if m, ok := unwrap(n).(*ast.MappingNode); ok && len(m.Values) > 0 {
		return y.pos(m.Values[0].Key)
	}
	if n == nil || n.GetToken() == nil {
		return Pos{File: y.path}
	}
	p := n.GetToken().Position
	return y.clamp(Pos{File: y.path, Line: p.Line, Col: p.Column})
}

// clamp keeps p inside the input: an empty value's token sits past the end
// of its line, which is where the diagnostic then points.
func (y *yamlDoc) clamp(p Pos) Pos {
	if p.Line < 1 || len(y.lines) == 0 {
		return p
	}
	if p.Line > len(y.lines) {
		p.Line, p.Col = len(y.lines), y.lines[len(y.lines)-1]+1
	}
	p.Col = max(1, min(p.Col, y.lines[p.Line-1]+1))
	return p
}

// lineLengths returns the length in runes of each line of data.
func lineLengths(data []byte) []int {
	var out []int
	for _, l := range strings.Split(string(data), "\n") {
		out = append(out, utf8.RuneCountInString(l))
	}
	return out
}

// unwrap looks through anchors and tags to the node that holds the value.
func unwrap(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			n = v.Value
		default:
			return n
		}
	}
}

// entries returns the keys of the mapping n, in file order, reporting a value
// that is not a mapping, unknown keys and keys that are not supported yet.
func (y *yamlDoc) entries(n ast.Node, what string, keys keySet) []entry {
	m, ok := unwrap(n).(*ast.MappingNode)
	if !ok {
		y.wrongType(n, what, "a mapping")
		return nil
	}
	var out []entry
	for _, mv := range m.Values {
		if e, ok := y.entry(mv, what, keys); ok {
			out = append(out, e)
		}
	}
	return out
}

func (y *yamlDoc) entry(mv *ast.MappingValueNode, what string, keys keySet) (entry, bool) {
	e := entry{key: keyText(mv.Key), pos: y.pos(mv.Key), val: mv.Value}
	if keys == nil {
		return e, true
	}
	switch keys[e.key] {
	case keySupported:
		return e, true
	case keyNotYet:
		y.d.errorf(e.pos, "%q in %s is not supported yet", e.key, what)
	case keyImplied:
		y.d.errorf(e.pos, "%q in %s is refused: %s", e.key, what, impliedKeys[e.key])
	default:
		y.d.errorf(e.pos, "%s", keys.unknown(e.key, what))
	}
	return e, false
}

// pairs returns the keys of the mapping n whose keys are names chosen by the
// contract (types, fields, headers, messages).
func (y *yamlDoc) pairs(n ast.Node, what string) []entry {
	if _, null := unwrap(n).(*ast.NullNode); null {
		return nil
	}
	return y.entries(n, what, nil)
}

func keyText(k ast.MapKeyNode) string {
	if s, ok := k.(ast.ScalarNode); ok {
		return fmt.Sprint(s.GetValue())
	}
	return k.String()
}

// kindName names the YAML kind of n for diagnostics.
func kindName(n ast.Node) string {
	switch unwrap(n).(type) {
	case *ast.StringNode, *ast.LiteralNode:
		return "a string"
	case *ast.IntegerNode:
		return "an integer"
	case *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "a number"
	case *ast.BoolNode:
		return "a boolean"
	case *ast.NullNode, nil:
		return "empty"
	case *ast.MappingNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.AliasNode, *ast.MergeKeyNode:
		return "a YAML alias (aliases are not supported)"
	}
	return "a " + unwrap(n).Type().String()
}

func (y *yamlDoc) wrongType(n ast.Node, what, want string) {
	y.d.errorf(y.pos(n), "%s must be %s, not %s", what, want, kindName(n))
}

// str reads a string scalar; block scalars (| and >) count as strings.
func (y *yamlDoc) str(n ast.Node, what string) (string, bool) {
	switch v := unwrap(n).(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.LiteralNode:
		return v.Value.Value, true
	}
	y.wrongType(n, what, "a string")
	return "", false
}

// integer reads an integer scalar that fits an int32.
func (y *yamlDoc) integer(n ast.Node, what string) (int, bool) {
	i, ok := y.integer64(n, what)
	if ok && (i > math.MaxInt32 || i < math.MinInt32) {
		y.d.errorf(y.pos(n), "%s is out of range", what)
		return 0, false
	}
	return int(i), ok
}

// integer64 reads an integer scalar that fits an int64.
func (y *yamlDoc) integer64(n ast.Node, what string) (int64, bool) {
	v, ok := unwrap(n).(*ast.IntegerNode)
	if !ok {
		y.wrongType(n, what, "an integer")
		return 0, false
	}
	i, ok := intValue(v)
	if !ok {
		y.d.errorf(y.pos(n), "%s is out of range", what)
		return 0, false
	}
	return i, true
}

// boolean reads true or false.
func (y *yamlDoc) boolean(n ast.Node, what string) (bool, bool) {
	v, ok := unwrap(n).(*ast.BoolNode)
	if !ok {
		y.wrongType(n, what, "true or false")
		return false, false
	}
	return v.Value, true
}

// list returns the items of a sequence.
func (y *yamlDoc) list(n ast.Node, what string) ([]ast.Node, bool) {
	s, ok := unwrap(n).(*ast.SequenceNode)
	if !ok {
		y.wrongType(n, what, "a list")
		return nil, false
	}
	return s.Values, true
}

// intValue returns an integer node's value when it fits an int64.
func intValue(v *ast.IntegerNode) (int64, bool) {
	switch i := v.Value.(type) {
	case int64:
		return i, true
	case uint64:
		return int64(i), i <= math.MaxInt64
	}
	return 0, false
}

func isNull(n ast.Node) bool {
	_, ok := unwrap(n).(*ast.NullNode)
	return ok
}
