package xml

import (
	"bytes"
	"encoding/json"
	stdxml "encoding/xml"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// maxDepth bounds how deeply a message's elements may nest.
const maxDepth = 1000

var (
	errNoElement = errors.New("there is no root element")
	errTwoRoots  = errors.New("there is more than one root element")
	errStrayText = errors.New("there is text outside the root element")
	errTooDeep   = fmt.Errorf("elements nest more than %d deep", maxDepth)
)

// Decode reads body, one XML element, into dst, a non-nil pointer. The root
// element's name is not checked (Jackson names it after the Java class, Go
// after the Go type); its children fill dst's fields by element name (xml
// tag, else json tag, else Go name). A list field reads both shapes the
// family writes: Go's repeated siblings and Jackson's wrapper element around
// them. XML has no types, so each value is read as the field's Go type wants
// it, through the type's JSON form (UnmarshalJSON and json tags apply); a
// *map[string]any or *any receives strings, lists and maps. A body that is
// not XML, or not XML of dst's shape, is a fatal error: it would fail the
// same way on every retry.
func (Codec) Decode(body []byte, dst any) error {
	if err := decode(body, dst); err != nil {
		return acemq.Fatalf("acemq: this message is not XML that reads as %T: %w", dst, err)
	}
	return nil
}

func decode(body []byte, dst any) error {
	root, err := parse(body)
	if err != nil {
		return err
	}
	t := reflect.TypeOf(dst)
	if t == nil || t.Kind() != reflect.Pointer {
		return fmt.Errorf("the destination must be a non-nil pointer, not %T", dst)
	}
	var r reader
	r.value(root, t.Elem(), false)
	return json.Unmarshal(r.buf.Bytes(), dst)
}

// element is one parsed XML element: its local name, its character data and
// its child elements. Attributes, comments and processing instructions are
// dropped.
type element struct {
	name     string
	text     []byte
	children []*element
}

// leaf reports whether e has no child elements.
func (e *element) leaf() bool { return len(e.children) == 0 }

// parse reads body's one root element. A declaration, comments, a doctype
// and space may surround it.
func parse(body []byte) (*element, error) {
	dec := stdxml.NewDecoder(bytes.NewReader(body))
	var root *element
	var open []*element
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if root == nil {
				return nil, errNoElement
			}
			return root, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case stdxml.StartElement:
			if len(open) == 0 && root != nil {
				return nil, errTwoRoots
			}
			if len(open) == maxDepth {
				return nil, errTooDeep
			}
			e := &element{name: t.Name.Local}
			if len(open) == 0 {
				root = e
			} else {
				parent := open[len(open)-1]
				parent.children = append(parent.children, e)
			}
			open = append(open, e)
		case stdxml.EndElement:
			open = open[:len(open)-1]
		case stdxml.CharData:
			if len(open) == 0 {
				if len(bytes.TrimSpace(t)) > 0 {
					return nil, errStrayText
				}
				continue
			}
			e := open[len(open)-1]
			e.text = append(e.text, t...)
		}
	}
}
