package acemq

import (
	"encoding"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
)

// StringCodec writes UTF-8 text as text/plain; charset=utf-8. It is
// registered as both "text" and "string", the names the family uses for it.
// Safe for concurrent use.
type StringCodec struct{}

// ContentType returns text/plain; charset=utf-8.
func (StringCodec) ContentType() string { return "text/plain; charset=utf-8" }

// Encode accepts a string, a []byte (copied), an encoding.TextMarshaler or a
// fmt.Stringer (in that order); anything else, or text that is not valid
// UTF-8, is a fatal error.
func (StringCodec) Encode(payload any) ([]byte, error) {
	var b []byte
	switch p := payload.(type) {
	case string:
		b = []byte(p)
	case []byte:
		b = append([]byte{}, p...)
	case encoding.TextMarshaler:
		text, err := p.MarshalText()
		if err != nil {
			return nil, Fatalf("acemq: StringCodec cannot encode a %T: %w", payload, err)
		}
		b = text
	case fmt.Stringer:
		b = []byte(p.String())
	default:
		return nil, Fatalf("acemq: StringCodec encodes only string, []byte and fmt.Stringer, not %T", payload)
	}
	if !utf8.Valid(b) {
		return nil, Fatalf("acemq: StringCodec encodes only valid UTF-8 text")
	}
	return b, nil
}

// Decode reads body into a *string, a *[]byte or an encoding.TextUnmarshaler
// (whose error is fatal). A body that is not valid
// UTF-8 is refused as fatal rather than decoded into replacement characters;
// so is one longer than the process-wide DecodeLimits.MaxBody.
func (StringCodec) Decode(body []byte, dst any) error {
	if err := decodelimit.Process().CheckBody("text", body); err != nil {
		return err
	}
	if !utf8.Valid(body) {
		return Fatalf("acemq: this message is not valid UTF-8 text")
	}
	switch d := dst.(type) {
	case *string:
		*d = string(body)
	case *[]byte:
		*d = append([]byte{}, body...)
	case encoding.TextUnmarshaler:
		if err := d.UnmarshalText(body); err != nil {
			return Fatalf("acemq: this message is not text that reads as %T: %w", dst, err)
		}
	default:
		return Fatalf("acemq: StringCodec decodes only into *string, *[]byte or an encoding.TextUnmarshaler, not %T", dst)
	}
	return nil
}

// CanDecode claims any text/ type, ignoring case; not "" (no content type).
func (StringCodec) CanDecode(contentType string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), "text/")
}
