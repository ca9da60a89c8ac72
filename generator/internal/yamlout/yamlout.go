// Package yamlout writes YAML for the generator's emission: the generator's
// own files read YAML only in parse_*.go, so writing goes through here.
//
// It is the one escaping rule for YAML scalars: a string is written plain
// only when no YAML 1.1 or 1.2 parser can read it as anything else, as a
// literal block only when every line survives one as it is, and otherwise
// double-quoted with every character a parser could change or refuse
// escaped (control characters, NUL, NEL, LS, PS, a BOM, bidirectional
// formatting, \r). Whatever a string holds, parsing the YAML gives it back
// byte for byte.
package yamlout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// FromJSON rewrites a JSON document as block-style YAML, keeping the order of
// every object's keys: sequences indented under their key, multi-line strings
// as literal blocks when they can be. Safe for concurrent use.
func FromJSON(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	root, err := readNode(dec)
	if err != nil {
		return nil, fmt.Errorf("yamlout: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("yamlout: data after the JSON document")
	}
	var b bytes.Buffer
	writeTop(&b, root)
	return b.Bytes(), nil
}

// node is a JSON value with its object's keys in order.
type node struct {
	kind   byte   // '{', '[', 's' (string) or 'v' (number, true, false, null)
	text   string // a scalar's string, or its JSON text
	keys   []string
	values []*node
}

func readNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		return readCollection(dec, byte(t))
	case string:
		return &node{kind: 's', text: t}, nil
	case json.Number:
		return &node{kind: 'v', text: t.String()}, nil
	case bool:
		return &node{kind: 'v', text: fmt.Sprint(t)}, nil
	case nil:
		return &node{kind: 'v', text: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

func readCollection(dec *json.Decoder, open byte) (*node, error) {
	n := &node{kind: open}
	for dec.More() {
		if open == '{' {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, key.(string))
		}
		v, err := readNode(dec)
		if err != nil {
			return nil, err
		}
		n.values = append(n.values, v)
	}
	_, err := dec.Token() // the closing delimiter
	return n, err
}

// writeTop writes the document's root.
func writeTop(b *bytes.Buffer, n *node) {
	if isBlock(n) {
		writeBlock(b, n, 0)
		return
	}
	b.WriteString(inline(n))
	b.WriteByte('\n')
}

// isBlock reports whether n is written as indented lines: a non-empty
// object or array.
func isBlock(n *node) bool { return (n.kind == '{' || n.kind == '[') && len(n.values) > 0 }

// writeBlock writes a non-empty object or array whose lines start at indent.
func writeBlock(b *bytes.Buffer, n *node, indent int) {
	pad := strings.Repeat(" ", indent)
	for i, v := range n.values {
		b.WriteString(pad)
		if n.kind == '{' {
			b.WriteString(mapKey(n.keys[i], indent) + ":")
		} else {
			b.WriteString("-")
		}
		writeValue(b, v, indent, n.kind == '{')
	}
}

// writeValue writes v after "key:" or "-": on the same line when it is a
// scalar, indented below otherwise (an array item's object starts on the
// dash's line, as YAML writers do).
func writeValue(b *bytes.Buffer, v *node, indent int, inMap bool) {
	switch {
	case !isBlock(v):
		b.WriteString(" " + scalarOrInline(v, indent, inMap) + "\n")
	case !inMap && v.kind == '{':
		var inner bytes.Buffer
		writeBlock(&inner, v, indent+2)
		b.WriteString(" " + strings.TrimPrefix(inner.String(), strings.Repeat(" ", indent+2)))
	default:
		b.WriteByte('\n')
		writeBlock(b, v, indent+2)
	}
}

func scalarOrInline(v *node, indent int, inMap bool) string {
	if v.kind == 's' {
		return scalar(v.text, indent, inMap)
	}
	return inline(v)
}

// inline is an empty collection or a non-string scalar.
func inline(n *node) string {
	switch n.kind {
	case '{':
		return "{}"
	case '[':
		return "[]"
	case 's':
		return quoted(n.text)
	}
	return n.text
}

// maxImplicitKey is the longest key YAML lets stand before its ':' (1024
// characters); a longer one is written as an explicit "? key" entry.
const maxImplicitKey = 1000

// mapKey is a mapping's key, ready for its ':'.
func mapKey(key string, indent int) string {
	k := scalar(key, indent, false)
	if len(k) > maxImplicitKey {
		return "? " + k + "\n" + strings.Repeat(" ", indent)
	}
	return k
}
