package acemqimpl

import "github.com/acemq/acemq-gen/runtime/acemq"

// MappedCodec returns a codec that writes a payload of type T as inner writes
// to(payload), and reads into a *T what inner reads into a W, through from.
// Any other payload or destination goes to inner unchanged. Generated code
// uses it to hand hamba/avro a mirror of a payload whose unions Avro carries
// through converters. Content type and CanDecode are inner's. Safe for
// concurrent use when inner, to and from are.
func MappedCodec[T, W any](inner acemq.Codec, to func(T) W, from func(W) T) acemq.Codec {
	return mappedCodec[T, W]{inner: inner, to: to, from: from}
}

type mappedCodec[T, W any] struct {
	inner acemq.Codec
	to    func(T) W
	from  func(W) T
}

func (c mappedCodec[T, W]) ContentType() string               { return c.inner.ContentType() }
func (c mappedCodec[T, W]) CanDecode(contentType string) bool { return c.inner.CanDecode(contentType) }

func (c mappedCodec[T, W]) Encode(payload any) ([]byte, error) {
	switch p := payload.(type) {
	case T:
		return c.inner.Encode(c.to(p))
	case *T:
		if p != nil {
			return c.inner.Encode(c.to(*p))
		}
	}
	return c.inner.Encode(payload)
}

func (c mappedCodec[T, W]) Decode(body []byte, dst any) error {
	d, ok := dst.(*T)
	if !ok || d == nil {
		return c.inner.Decode(body, dst)
	}
	var w W
	if err := c.inner.Decode(body, &w); err != nil {
		return err
	}
	*d = c.from(w)
	return nil
}
