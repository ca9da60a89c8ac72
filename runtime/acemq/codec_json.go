package acemq

import (
	"encoding/json"
	"strings"
)

// JSONCodec encodes payloads with encoding/json (field names from json tags)
// and writes application/json. It is the default codec, so it also reads a
// message whose sender set no content type. Safe for concurrent use.
type JSONCodec struct{}

// ContentType returns application/json.
func (JSONCodec) ContentType() string { return "application/json" }

// Encode marshals payload with encoding/json.
func (JSONCodec) Encode(payload any) ([]byte, error) {
	return json.Marshal(payload)
}

// Decode unmarshals body into dst; a body that does not read as dst is a
// fatal error, since it never will.
func (JSONCodec) Decode(body []byte, dst any) error {
	if err := json.Unmarshal(body, dst); err != nil {
		return Fatalf("acemq: this message is not JSON that reads as %T: %w", dst, err)
	}
	return nil
}

// CanDecode claims "" (no content type), application/json*, text/json* and
// any +json type, ignoring case.
func (JSONCodec) CanDecode(contentType string) bool {
	ct := strings.ToLower(strings.TrimSpace(contentType))
	return ct == "" ||
		strings.HasPrefix(ct, "application/json") ||
		strings.HasPrefix(ct, "text/json") ||
		strings.Contains(ct, "+json")
}
