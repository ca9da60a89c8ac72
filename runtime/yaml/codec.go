package yaml

import (
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq"
	goyaml "github.com/goccy/go-yaml"
)

// ContentType is what Codec writes on every message.
const ContentType = "application/yaml"

// claimed are the media types Codec reads; any "+yaml" suffix type
// is read too.
var claimed = []string{"application/yaml", "application/x-yaml", "text/x-yaml", "text/yaml"}

// Codec encodes payloads as block-style YAML and decodes YAML into a pointer.
// The zero value is ready to use and safe for concurrent use.
type Codec struct{}

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

// Decode reads body into dst, a non-nil pointer, through dst's UnmarshalJSON
// where it has one. A body that is not YAML of dst's shape is a fatal error:
// it would fail the same way on every retry.
func (Codec) Decode(body []byte, dst any) error {
	if err := goyaml.UnmarshalWithOptions(body, dst, goyaml.UseJSONUnmarshaler()); err != nil {
		return acemq.Fatalf("acemq: this message is not YAML that reads as %T: %w", dst, err)
	}
	return nil
}

// CanDecode reports whether contentType is a YAML type: application/yaml,
// application/x-yaml, text/x-yaml, text/yaml or any +yaml suffix, compared
// case-insensitively. It is false for "" (no content type).
func (Codec) CanDecode(contentType string) bool {
	mt := mediaType(contentType)
	for _, p := range claimed {
		if mt == p {
			return true
		}
	}
	return strings.HasSuffix(mt, "+yaml")
}

// mediaType returns contentType lower-cased, without parameters
// ("; charset=...") or surrounding space.
func mediaType(contentType string) string {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}
