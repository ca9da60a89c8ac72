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
	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
	"github.com/acemq/acemq-gen/runtime/internal/errtext"
	"github.com/acemq/acemq-gen/runtime/internal/jsoncheck"
)

var (
	errNoElement = errors.New("there is no root element")
	errTwoRoots  = errors.New("there is more than one root element")
	errStrayText = errors.New("there is text outside the root element")
)

// format names XML in a LimitError.
const format = "xml"

// Decode reads body, one XML element, into dst, a non-nil pointer. The root
// element's name is not checked (Jackson names it after the Java class, Go
// after the Go type); its children fill dst's fields by element name (xml
// tag, else json tag, else Go name). A list field reads both shapes the
// family writes: Go's repeated siblings and Jackson's wrapper element around
// them. XML has no types, so each value is read as the field's Go type wants
// it, through the type's JSON form (UnmarshalJSON and json tags apply); a
// *map[string]any or *any receives strings, lists and maps. A body that is
// not XML, or not XML of dst's shape, is a fatal error: it would fail the
// same way on every retry. So is text where a record's elements belong
// (<items>oops</items> for a list of records) and an element repeated where
// its field holds one value (<s>a</s><s>b</s>), which a lenient reader would
// turn into an empty record or the last value. A body over c.Limits (more
// bytes, deeper elements, more elements and attributes) is refused by a byte
// scan before the parser allocates: "acemq: xml: more than 100000
// elements".
func (c Codec) Decode(body []byte, dst any) error {
	lim := c.limits()
	if err := check(body, lim); err != nil {
		return err
	}
	if err := decode(body, dst, lim); err != nil {
		if errors.Is(err, acemq.ErrDecodeLimit) {
			return err
		}
		return acemq.Fatalf("acemq: this message is not XML that reads as %T: %w", dst, errtext.Bound(err))
	}
	return nil
}

// DefaultMaxElements is how many elements and attributes an XML body may
// hold when the codec's own Limits.MaxElements is zero and the process-wide
// limit is higher: encoding/xml costs about 2.6 µs and 330 bytes an element,
// so the process-wide million would let one message take seconds and a third
// of a gigabyte. Set Codec.Limits.MaxElements to read larger documents.
const DefaultMaxElements = 100_000

// limits returns the limits Decode applies.
func (c Codec) limits() acemq.DecodeLimits {
	return decodelimit.ResolveElements(c.Limits, DefaultMaxElements)
}

// check refuses a body over lim.
func check(body []byte, lim acemq.DecodeLimits) error {
	if err := lim.CheckBody(format, body); err != nil {
		return err
	}
	if lim.TooMany(countMarkup(body, lim.MaxElements)) {
		return lim.Over(format, decodelimit.Elements)
	}
	return nil
}

// countMarkup counts the start tags (and processing instructions,
// comments, declarations) and attributes in body, stopping once past max
// (negative: no limit): every '<' not opening an end tag, and every '='
// inside a tag. It may count a CDATA section's or a comment's '<' too, so
// it bounds from above what the parser would allocate a token for.
func countMarkup(body []byte, max int) int {
	n, inTag := 0, false
	var quote byte
	for i, c := range body {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '<':
			inTag = true
			if i+1 == len(body) || body[i+1] != '/' {
				n++
			}
		case !inTag:
		case c == '"' || c == '\'':
			quote = c
		case c == '=':
			n++
		case c == '>':
			inTag = false
		}
		if max >= 0 && n > max {
			return n
		}
	}
	return n
}

func decode(body []byte, dst any, lim acemq.DecodeLimits) error {
	root, err := parse(body, lim)
	if err != nil {
		return err
	}
	t := reflect.TypeOf(dst)
	if t == nil || t.Kind() != reflect.Pointer {
		return fmt.Errorf("the destination must be a non-nil pointer, not %T", dst)
	}
	var r reader
	r.value(root, t.Elem(), false)
	if r.err != nil {
		return r.err
	}
	if err := json.Unmarshal(r.buf.Bytes(), dst); err != nil {
		return err
	}
	return jsoncheck.Converted(r.buf.Bytes(), t) // a generated record's required fields
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
func parse(body []byte, lim acemq.DecodeLimits) (*element, error) {
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
			if lim.TooDeep(len(open) + 1) {
				return nil, lim.Over(format, decodelimit.Depth)
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
