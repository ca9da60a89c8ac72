package acemq

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
	"github.com/acemq/acemq-gen/runtime/internal/errtext"
	"github.com/acemq/acemq-gen/runtime/internal/jsoncheck"
)

// JSONCodec encodes payloads with encoding/json (field names from json tags)
// and writes application/json. It is the default codec, so it also reads a
// message whose sender set no content type. The zero value is ready to use;
// safe for concurrent use.
type JSONCodec struct {
	// Limits bound what Decode reads; zero fields take the process-wide
	// SetDecodeLimits (64 MiB, depth 100, a million values).
	Limits DecodeLimits
}

// ContentType returns application/json.
func (JSONCodec) ContentType() string { return "application/json" }

// Encode marshals payload with encoding/json.
func (JSONCodec) Encode(payload any) ([]byte, error) {
	return json.Marshal(payload)
}

// Decode unmarshals body into dst; a body that does not read as dst is a
// fatal error, since it never will. For a record generated from a contract
// (a type with AvroFullSchema), a field the contract requires — no default,
// not optional — that is absent, or null where its Go type cannot hold null,
// is such an error too ("... requires field "orderId", which is missing or
// null"), as is a field given twice and a message that is null: encoding/json
// would hand the handler zero values. A body over c.Limits is refused by a
// scan before encoding/json reads it: "acemq: json: nesting deeper than
// 100".
func (c JSONCodec) Decode(body []byte, dst any) error {
	lim := c.Limits.Resolve()
	if err := lim.CheckBody("json", body); err != nil {
		return err
	}
	res := jsoncheck.Check(body, reflect.TypeOf(dst), lim.MaxDepth, lim.MaxElements)
	if res.Over != nil {
		return lim.Over("json", limitOf(res.Over))
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return Fatalf("acemq: this message is not JSON that reads as %T: %w", dst, errtext.Bound(err))
	}
	if res.Missing != nil {
		return Fatalf("acemq: this message is not JSON that reads as %T: %w", dst, res.Missing)
	}
	return nil
}

// limitOf names the limit a jsoncheck.LimitError passed.
func limitOf(e *jsoncheck.LimitError) string {
	if e.Limit == jsoncheck.Depth {
		return decodelimit.Depth
	}
	return decodelimit.Elements
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
