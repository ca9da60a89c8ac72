package acemqimpl

import "github.com/acemq/acemq-gen/runtime/acemq"

// Helpers for generated code that hands a codec a mirror of a payload type
// (a type shaped for the codec, such as the Avro form of a record holding a
// multi-branch union): converting its fields, and wrapping the codec.

// MirrorSlice converts each element of in with f; nil stays nil.
func MirrorSlice[A, B any](in []A, f func(A) B) []B {
	if in == nil {
		return nil
	}
	out := make([]B, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

// MirrorMap converts each value of in with f; nil stays nil.
func MirrorMap[A, B any](in map[string]A, f func(A) B) map[string]B {
	if in == nil {
		return nil
	}
	out := make(map[string]B, len(in))
	for k, v := range in {
		out[k] = f(v)
	}
	return out
}

// MirrorPtr converts *in with f; nil stays nil.
func MirrorPtr[A, B any](in *A, f func(A) B) *B {
	if in == nil {
		return nil
	}
	v := f(*in)
	return &v
}

// Mirrored returns the codec builder of a payload T whose codec reads and
// writes its mirror W: build's codec (or build's error, passed on) wrapped in
// acemqimpl.MappedCodec, so it encodes to(T) and decodes into W then from(W).
func Mirrored[T, W any](to func(T) W, from func(W) T, build CodecBuilder) CodecBuilder {
	return func(conn *acemq.Conn) (acemq.Codec, error) {
		c, err := build(conn)
		if err != nil {
			return nil, err
		}
		return MappedCodec(c, to, from), nil
	}
}
