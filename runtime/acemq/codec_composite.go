package acemq

import (
	"errors"
	"fmt"
)

// ContentTypeDecoder is a codec that picks how to decode by the message's
// content type, such as CompositeCodec. A consumer whose codec implements it
// calls DecodeAs instead of Decode.
type ContentTypeDecoder interface {
	DecodeAs(contentType string, body []byte, dst any) error
}

// CompositeCodec holds several codecs: it encodes with the first, and a
// consumer decodes each message with the first that claims its content type.
// Order matters: BytesCodec claims everything, so it belongs last. Safe for
// concurrent use when its codecs are.
type CompositeCodec struct {
	codecs []Codec
}

// NewCompositeCodec returns a codec that writes with codecs[0] and reads
// with whichever of codecs first claims a message. A nil codec panics.
func NewCompositeCodec(codecs ...Codec) *CompositeCodec {
	for i, c := range codecs {
		if c == nil {
			panic(fmt.Sprintf("acemq: NewCompositeCodec was given a nil codec at position %d", i))
		}
	}
	return &CompositeCodec{codecs: append([]Codec{}, codecs...)}
}

// ContentType returns the first codec's content type ("" when empty).
func (c *CompositeCodec) ContentType() string {
	if len(c.codecs) == 0 {
		return ""
	}
	return c.codecs[0].ContentType()
}

// Encode encodes with the first codec.
func (c *CompositeCodec) Encode(payload any) ([]byte, error) {
	if len(c.codecs) == 0 {
		return nil, errors.New("acemq: this CompositeCodec holds no codecs, so it cannot encode")
	}
	return c.codecs[0].Encode(payload)
}

// Decode always fails: choosing a codec needs the content type, which only a
// consumer passes (through DecodeAs).
func (c *CompositeCodec) Decode([]byte, any) error {
	return Fatalf("acemq: CompositeCodec.Decode needs the content type; it is only usable through a consumer, which passes one")
}

// CanDecode reports whether any of its codecs claims contentType.
func (c *CompositeCodec) CanDecode(contentType string) bool {
	return c.pick(contentType) != nil
}

// DecodeAs decodes body with the first codec that claims contentType; when
// none does, a fatal error names the content types it holds.
func (c *CompositeCodec) DecodeAs(contentType string, body []byte, dst any) error {
	codec := c.pick(contentType)
	if codec == nil {
		return Fatalf("acemq: no codec in this CompositeCodec will read %q; it holds %s", contentType, c.holds())
	}
	return codec.Decode(body, dst)
}

func (c *CompositeCodec) pick(contentType string) Codec {
	for _, codec := range c.codecs {
		if codec.CanDecode(contentType) {
			return codec
		}
	}
	return nil
}

func (c *CompositeCodec) holds() string {
	types := make([]string, len(c.codecs))
	for i, codec := range c.codecs {
		types[i] = codec.ContentType()
	}
	return fmt.Sprint(types)
}

// DecodeFor is how a consumer decodes: a codec (single or composite) that
// does not claim contentType gives the fatal error `no codec reads "<ct>"`;
// otherwise a ContentTypeDecoder decodes with DecodeAs and any other codec
// with Decode. A panic in the codec is the fatal error "the codec panicked:
// <value>", so a consumer parks the message instead of crashing.
func DecodeFor(c Codec, contentType string, body []byte, dst any) error {
	err := guard("the codec", func() error { return decodeFor(c, contentType, body, dst) })
	if _, ok := panicked(err); ok {
		return Fatal(err)
	}
	return err
}

func decodeFor(c Codec, contentType string, body []byte, dst any) error {
	if c == nil || !c.CanDecode(contentType) {
		return Fatal(fmt.Errorf("no codec reads %q", contentType))
	}
	if ctd, ok := c.(ContentTypeDecoder); ok {
		return ctd.DecodeAs(contentType, body, dst)
	}
	return c.Decode(body, dst)
}
