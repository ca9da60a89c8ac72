package acemq_test

import (
	"context"
	"errors"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

var errNoKeyring = errors.New("acemq: no keyring; pass crypto.WithKeyring")

func TestPublishWithFuncFailureMakesEverySendFailWithTheBuildError(t *testing.T) {
	conn := connect(t)
	p := acemq.NewPublisher[Order](conn, "", "orders", acemqimpl.PublishWithFunc[Order](func(*acemq.Conn) (acemq.Codec, error) {
		return nil, errNoKeyring
	}))
	for range 2 {
		if err := p.Send(context.Background(), Order{ID: "o"}); !errors.Is(err, errNoKeyring) {
			t.Fatalf("send: %v, want the build error", err)
		}
	}
}

func TestPublishWithFuncEncodesWithTheBuiltCodecOfTheConnection(t *testing.T) {
	conn := ordersConn(t)
	var seen *acemq.Conn
	p := acemq.NewPublisher[Order](conn, "", "orders", acemqimpl.PublishWithFunc[Order](func(c *acemq.Conn) (acemq.Codec, error) {
		seen = c
		return acemq.StringCodec{}, nil
	}))
	if err := p.Send(context.Background(), Order{ID: "o"}); err == nil {
		t.Fatal("StringCodec encoded a struct: the built codec was not used")
	}
	if seen != conn {
		t.Fatal("build did not receive the publisher's connection")
	}
}

func TestPublishWithFuncRefusesANilBuilderAndANilCodec(t *testing.T) {
	conn := connect(t)
	for name, build := range map[string]func(*acemq.Conn) (acemq.Codec, error){
		"nil builder": nil,
		"nil codec":   func(*acemq.Conn) (acemq.Codec, error) { return nil, nil },
	} {
		p := acemq.NewPublisher[Order](conn, "", "orders", acemqimpl.PublishWithFunc[Order](build))
		if err := p.Send(context.Background(), Order{}); err == nil {
			t.Errorf("%s: send succeeded", name)
		}
	}
}

func TestConsumeWithFuncFailureFailsConsumeWithTheBuildError(t *testing.T) {
	conn := ordersConn(t)
	_, err := acemq.Consume(context.Background(), conn, "orders", func(context.Context, acemq.Message[Order]) acemq.Ack {
		return acemq.Accept()
	}, acemqimpl.ConsumeWithFunc(conn, func(*acemq.Conn) (acemq.Codec, error) { return nil, errNoKeyring }))
	if !errors.Is(err, errNoKeyring) {
		t.Fatalf("consume: %v, want the build error", err)
	}
}

func TestConsumeWithFuncDecodesWithTheBuiltCodec(t *testing.T) {
	conn := ordersConn(t)
	got := make(chan Order, 1)
	consume(t, conn, "orders", func(_ context.Context, m acemq.Message[Order]) acemq.Ack {
		got <- m.Payload
		return acemq.Accept()
	}, acemqimpl.ConsumeWithFunc(conn, func(*acemq.Conn) (acemq.Codec, error) { return acemq.JSONCodec{}, nil }))
	send(t, conn, "orders", Order{ID: "o-7"})
	if o := <-got; o.ID != "o-7" {
		t.Fatalf("got %+v", o)
	}
}
