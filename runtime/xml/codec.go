package xml

import (
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/mediatype"
)

// ContentType is what Codec writes on every message.
const ContentType = "application/xml"

// claimed are the media types Codec reads; any "+xml" suffix type is read too.
var claimed = []string{"application/xml", "text/xml"}

// Codec encodes payloads as XML in the shape Go's encoding/xml writes (lists
// as repeated sibling elements) and decodes XML of either list shape the
// family writes into a pointer. The zero value is ready to use and safe for
// concurrent use.
type Codec struct {
	// Limits bound what Decode reads; zero fields take the process-wide
	// decodelimit.Process (64 MiB, depth 100), and MaxElements
	// (elements and attributes) at most DefaultMaxElements.
	Limits acemq.DecodeLimits
}

var _ acemq.Codec = Codec{}

// ContentType returns "application/xml".
func (Codec) ContentType() string { return ContentType }

// CanDecode reports whether contentType is application/xml, text/xml or any
// +xml suffix type, compared case-insensitively and without parameters. It
// is false for "" (no content type).
func (Codec) CanDecode(contentType string) bool {
	return mediatype.Claims(contentType, claimed, "+xml")
}
