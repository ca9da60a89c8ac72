package patterns

import (
	"fmt"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// failureBody is the body of a failure reply in codec's format, nil when
// codec writes none. It is codec's null where the format has one: JSON's and
// YAML's "null", what the family's Python responder sends (its reply payload
// is None). Elsewhere it is Resp's zero value: a TOML table, an XML element,
// an Avro record of zeros, each of which a decoder of the RPC's responses
// reads. An encrypted codec seals whichever its inner codec writes.
func failureBody[Resp any](codec acemq.Codec) []byte {
	if b, err := encodeQuietly(codec, nil); err == nil && len(b) > 0 {
		return b
	}
	var zero Resp
	if b, err := encodeQuietly(codec, zero); err == nil && b != nil {
		return b
	}
	return nil
}

// encodeQuietly is codec.Encode with a panic turned into an error.
func encodeQuietly(codec acemq.Codec, payload any) (b []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			b, err = nil, fmt.Errorf("acemq: the codec panicked: %v", p)
		}
	}()
	return codec.Encode(payload)
}

// encodedAs is the codec of bodies already encoded with the codec it embeds:
// it writes that codec's content type and passes the bytes through.
type encodedAs struct{ acemq.Codec }

// Encode passes a []byte through.
func (encodedAs) Encode(payload any) ([]byte, error) { return acemq.BytesCodec{}.Encode(payload) }
