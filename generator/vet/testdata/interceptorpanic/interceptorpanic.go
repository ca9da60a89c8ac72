// Package interceptorpanic holds the interceptorpanic analyzer's cases.
package interceptorpanic

import (
	"context"
	"errors"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

func publish(_ context.Context, c *acemq.PublishContext) error {
	if c.Payload == nil {
		panic("no payload") // want `panic in a publish interceptor: return an error instead`
	}
	return nil
}

var consume acemq.ConsumeInterceptor = func(_ context.Context, c *acemq.ConsumeContext) error {
	if len(c.Body) == 0 {
		panic(errors.New("empty")) // want `panic in a consume interceptor`
	}
	return nil
}

var typed = acemqimpl.InterceptPublish(func(_ context.Context, _ *acemq.PublishContext, m *string) error {
	panic("typed") // want `panic in a typed publish interceptor`
})

type codec struct{ acemq.JSONCodec }

func (codec) Encode(any) ([]byte, error) { panic("encode") } // want `panic in the codec method codec.Encode`

func (c *codec) Decode(body []byte, dst any) error {
	if body == nil {
		panic("decode") // want `panic in the codec method codec.Decode`
	}
	return c.JSONCodec.Decode(body, dst)
}

// Not reported: a panic in a nested function (another function), one the
// interceptor recovers itself, a method a Codec does not have, a type that is
// no Codec, and an ordinary function.
func nested(_ context.Context, c *acemq.PublishContext) error {
	go func() { panic("another goroutine's business") }()
	return nil
}

func recovered(_ context.Context, c *acemq.PublishContext) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("recovered")
		}
	}()
	panic("caught")
}

func (codec) Helper() { panic("not a Codec method") }

type notACodec struct{}

func (notACodec) Encode(any) ([]byte, error) { panic("no ContentType, no Codec") }

func ordinary() { panic("fine") }

var _ = []any{publish, consume, typed, nested, recovered, ordinary}
