package acemq

import (
	"encoding"

	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
)

// BytesCodec passes bytes through untouched and writes
// application/octet-stream. It claims every content type, so in a
// CompositeCodec it belongs last. Safe for concurrent use.
type BytesCodec struct{}

// ContentType returns application/octet-stream.
func (BytesCodec) ContentType() string { return "application/octet-stream" }

// Encode accepts a []byte (copied), a string or an encoding.BinaryMarshaler;
// anything else is a fatal error.
func (BytesCodec) Encode(payload any) ([]byte, error) {
	switch p := payload.(type) {
	case []byte:
		return append([]byte{}, p...), nil
	case string:
		return []byte(p), nil
	case encoding.BinaryMarshaler:
		b, err := p.MarshalBinary()
		if err != nil {
			return nil, Fatalf("acemq: BytesCodec cannot encode a %T: %w", payload, err)
		}
		return b, nil
	}
	return nil, Fatalf("acemq: BytesCodec encodes only []byte, string and encoding.BinaryMarshaler, not %T", payload)
}

// Decode copies body into a *[]byte, a *string or an
// encoding.BinaryUnmarshaler (whose error is fatal); any other dst, or a body
// longer than the process-wide DecodeLimits.MaxBody, is a fatal error.
func (BytesCodec) Decode(body []byte, dst any) error {
	if err := decodelimit.Process().CheckBody("bytes", body); err != nil {
		return err
	}
	switch d := dst.(type) {
	case *[]byte:
		*d = append([]byte{}, body...)
	case *string:
		*d = string(body)
	case encoding.BinaryUnmarshaler:
		if err := d.UnmarshalBinary(append([]byte{}, body...)); err != nil {
			return Fatalf("acemq: this message does not read as %T: %w", dst, err)
		}
	default:
		return Fatalf("acemq: BytesCodec decodes only into *[]byte, *string or an encoding.BinaryUnmarshaler, not %T", dst)
	}
	return nil
}

// CanDecode claims every content type, "" included.
func (BytesCodec) CanDecode(string) bool { return true }
