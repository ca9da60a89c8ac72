package toml

import (
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/mediatype"
)

// ContentType is what Codec writes on every message.
const ContentType = "application/toml"

// claimed are the media types Codec reads; any "+toml" suffix type is read too.
var claimed = []string{"application/toml", "text/toml"}

// Codec encodes struct and map payloads as TOML and decodes TOML into a
// pointer, naming fields by their json tags. The zero value is ready to use
// and safe for concurrent use.
type Codec struct {
	// Limits bound what Decode reads; zero fields take the process-wide
	// decodelimit.Process (64 MiB, depth 100, a million values).
	Limits acemq.DecodeLimits
}

var _ acemq.Codec = Codec{}

// ContentType returns "application/toml".
func (Codec) ContentType() string { return ContentType }

// CanDecode reports whether contentType is application/toml, text/toml or any
// +toml suffix type, compared case-insensitively. It is false for "".
func (Codec) CanDecode(contentType string) bool {
	return mediatype.Claims(contentType, claimed, "+toml")
}
