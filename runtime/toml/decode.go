package toml

import (
	"encoding/json"
	"reflect"

	"github.com/BurntSushi/toml"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
	"github.com/acemq/acemq-gen/runtime/internal/errtext"
	"github.com/acemq/acemq-gen/runtime/internal/jsoncheck"
)

// Decode reads body into dst, a non-nil pointer. A *map[string]any or *any
// receives TOML's own types (int64, float64, time.Time, ...); any other
// destination is filled through its json tags. A body that is not TOML of
// dst's shape is a fatal error: it would fail the same way on every retry.
// So is a body over c.Limits (more bytes, nesting — inline tables, arrays
// and dotted key segments — deeper, or more values), found by a byte scan
// before the parser, whose cost grows with the square of the depth, runs:
// "acemq: toml: nesting deeper than 100".
func (c Codec) Decode(body []byte, dst any) error {
	if err := c.check(body); err != nil {
		return err
	}
	var doc map[string]any
	if _, err := toml.Decode(string(body), &doc); err != nil {
		return acemq.Fatalf("acemq: this message is not TOML that reads as %T: %w", dst, errtext.Bound(err))
	}
	if err := assign(doc, dst); err != nil {
		return acemq.Fatalf("acemq: this message is not TOML that reads as %T: %w", dst, errtext.Bound(err))
	}
	return nil
}

// assign stores doc in dst, by json tags unless dst takes the table as is.
func assign(doc map[string]any, dst any) error {
	switch d := dst.(type) {
	case *map[string]any:
		*d = doc
		return nil
	case *any:
		*d = doc
		return nil
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return err
	}
	return jsoncheck.Converted(b, reflect.TypeOf(dst)) // a generated record's required fields
}

// format names TOML in a LimitError.
const format = "toml"

// check refuses a body over the codec's limits.
func (c Codec) check(body []byte) error {
	l := c.Limits.Resolve()
	if err := l.CheckBody(format, body); err != nil {
		return err
	}
	sh := scan(body, l.MaxDepth, l.MaxElements)
	switch {
	case l.TooDeep(sh.depth):
		return l.Over(format, decodelimit.Depth)
	case l.TooMany(sh.elements):
		return l.Over(format, decodelimit.Elements)
	}
	return nil
}
