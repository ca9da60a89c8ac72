package toml

import (
	"encoding/json"

	"github.com/BurntSushi/toml"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// Decode reads body into dst, a non-nil pointer. A *map[string]any or *any
// receives TOML's own types (int64, float64, time.Time, ...); any other
// destination is filled through its json tags. A body that is not TOML of
// dst's shape is a fatal error: it would fail the same way on every retry.
func (Codec) Decode(body []byte, dst any) error {
	var doc map[string]any
	if _, err := toml.Decode(string(body), &doc); err != nil {
		return acemq.Fatalf("acemq: this message is not TOML that reads as %T: %w", dst, err)
	}
	if err := assign(doc, dst); err != nil {
		return acemq.Fatalf("acemq: this message is not TOML that reads as %T: %w", dst, err)
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
	return json.Unmarshal(b, dst)
}
