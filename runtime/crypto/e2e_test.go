package crypto_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/crypto"
)

type order struct {
	ID string `json:"id"`
}

func TestAnEncryptedMessageCrossesTheMemoryBrokerAsCiphertext(t *testing.T) {
	kr, err := crypto.NewKeyring(crypto.Key{ID: "2026-01", Secret: bytes.Repeat([]byte{7}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	codec := crypto.Wrap(acemq.JSONCodec{}, kr)
	conn, err := acemq.Connect(t.Context(), "memory://crypto-e2e", crypto.WithKeyring(kr))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	got := make(chan acemq.Message[order], 1)
	topo := acemq.NewTopology().Exchange("shop", "topic").Queue("billing").Binding("billing", "shop", "order.*")
	_, err = acemqimpl.DeclareAndConsume(t.Context(), conn, topo, "billing", func(_ context.Context, m acemq.Message[order]) acemq.Ack {
		got <- m
		return acemq.Accept()
	}, acemq.ConsumeWith(codec))
	if err != nil {
		t.Fatal(err)
	}
	pub := acemq.NewPublisher(conn, "shop", "order.placed", acemq.PublishWith[order](codec))
	if err := pub.Send(t.Context(), order{ID: "secret-order"}); err != nil {
		t.Fatal(err)
	}
	m := <-got
	if m.Payload.ID != "secret-order" || m.ContentType != crypto.ContentType {
		t.Fatalf("received %+v as %q", m.Payload, m.ContentType)
	}
	if m.Body[0] != 0xAE || bytes.Contains(m.Body, []byte("secret-order")) {
		t.Fatalf("the body on the wire is % x", m.Body)
	}
}
