package acemq

// BytesCodec passes bytes through untouched and writes
// application/octet-stream. It claims every content type, so in a
// CompositeCodec it belongs last. Safe for concurrent use.
type BytesCodec struct{}

// ContentType returns application/octet-stream.
func (BytesCodec) ContentType() string { return "application/octet-stream" }

// Encode accepts a []byte (copied) or a string; anything else is a fatal error.
func (BytesCodec) Encode(payload any) ([]byte, error) {
	switch p := payload.(type) {
	case []byte:
		return append([]byte{}, p...), nil
	case string:
		return []byte(p), nil
	}
	return nil, Fatalf("acemq: BytesCodec encodes only []byte and string, not %T", payload)
}

// Decode copies body into a *[]byte or a *string; any other dst is a fatal error.
func (BytesCodec) Decode(body []byte, dst any) error {
	switch d := dst.(type) {
	case *[]byte:
		*d = append([]byte{}, body...)
	case *string:
		*d = string(body)
	default:
		return Fatalf("acemq: BytesCodec decodes only into *[]byte or *string, not %T", dst)
	}
	return nil
}

// CanDecode claims every content type, "" included.
func (BytesCodec) CanDecode(string) bool { return true }
