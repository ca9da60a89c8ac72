package yaml

import (
	"encoding/json"
	"reflect"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
	"github.com/acemq/acemq-gen/runtime/internal/jsoncheck"
	"github.com/acemq/acemq-gen/runtime/internal/mediatype"
	goyaml "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
)

// ContentType is what Codec writes on every message.
const ContentType = "application/yaml"

// claimed are the media types Codec reads; any "+yaml" suffix type
// is read too.
var claimed = []string{"application/yaml", "application/x-yaml", "text/x-yaml", "text/yaml"}

// DefaultMaxElements is how many values a YAML body may hold when the
// codec's own Limits.MaxElements is zero and the process-wide limit is
// higher: the parser (goccy/go-yaml) costs about 1.2 KB and 5 µs a value, so
// the process-wide million would let one message take over a gigabyte; at
// 50,000 one takes at most some 60 MB and 0.3 s. Set Codec.Limits.MaxElements
// to read larger documents.
const DefaultMaxElements = 50_000

// limits returns the limits Decode applies.
func (c Codec) limits() acemq.DecodeLimits {
	return decodelimit.ResolveElements(c.Limits, DefaultMaxElements)
}

// Codec encodes payloads as block-style YAML and decodes YAML into a pointer.
// The zero value is ready to use and safe for concurrent use.
type Codec struct {
	// Limits bound what Decode reads; zero fields take the process-wide
	// decodelimit.Process (64 MiB, depth 100), and MaxElements at
	// most DefaultMaxElements.
	Limits acemq.DecodeLimits
}

var _ acemq.Codec = Codec{}

// ContentType returns "application/yaml".
func (Codec) ContentType() string { return ContentType }

// Encode writes payload as block-style YAML with two-space indentation. A
// type with a MarshalJSON method (generated records with units, decimals or
// unions) is written in the form that method gives, so YAML and JSON agree.
// A payload the YAML encoder cannot represent is a fatal error.
func (Codec) Encode(payload any) ([]byte, error) {
	b, err := goyaml.MarshalWithOptions(payload, goyaml.Flow(false), goyaml.Indent(2), goyaml.UseJSONMarshaler())
	if err != nil {
		return nil, acemq.Fatalf("acemq: a %T cannot be written as YAML: %w", payload, err)
	}
	return b, nil
}

// Decode reads body, one YAML document, into dst, a non-nil pointer, through
// dst's UnmarshalJSON where it has one. A body that is not one YAML document
// of dst's shape (two documents, a key written twice, a value of the wrong
// type) is a fatal error: it would fail the same way on every retry. So is a
// body over c.Limits — more bytes, deeper nesting or more values (aliases
// counted as expanded) — checked before the parser builds anything of that
// size: "acemq: yaml: nesting deeper than 100". An empty body leaves dst as
// it is.
func (c Codec) Decode(body []byte, dst any) error {
	node, err := parseBounded(body, c.limits())
	if err != nil || node == nil {
		return decodeError(dst, err)
	}
	if err := goyaml.NodeToValue(node, dst, goyaml.UseJSONUnmarshaler()); err != nil {
		return decodeError(dst, err)
	}
	return decodeError(dst, required(node, dst))
}

// required checks a generated record's required fields (see
// acemq.JSONCodec.Decode) on the document read as plain values: a decoder
// leaves a missing field at its zero value.
func required(node ast.Node, dst any) error {
	t := reflect.TypeOf(dst)
	if !jsoncheck.Requires(t) {
		return nil
	}
	var plain any
	if goyaml.NodeToValue(node, &plain) != nil {
		return nil
	}
	b, err := json.Marshal(plain)
	if err != nil {
		return nil // keys JSON cannot write: dst's decode already read them
	}
	return jsoncheck.Check(b, t, -1, -1).Missing
}

// CanDecode reports whether contentType is a YAML type: application/yaml,
// application/x-yaml, text/x-yaml, text/yaml or any +yaml suffix, compared
// case-insensitively. It is false for "" (no content type).
func (Codec) CanDecode(contentType string) bool {
	return mediatype.Claims(contentType, claimed, "+yaml")
}
