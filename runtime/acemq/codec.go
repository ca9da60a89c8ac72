package acemq

// Codec turns a payload into bytes and back. Implementations must be safe for
// concurrent use.
type Codec interface {
	// ContentType is written on every message this codec encodes.
	ContentType() string
	// Encode turns payload into bytes.
	Encode(payload any) ([]byte, error)
	// Decode reads body into dst, a non-nil pointer. A body that can never
	// decode returns an error marked with Fatal.
	Decode(body []byte, dst any) error
	// CanDecode reports whether this codec reads a message of contentType;
	// "" means the sender set none.
	CanDecode(contentType string) bool
}
