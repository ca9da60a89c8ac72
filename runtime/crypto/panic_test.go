package crypto_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
	"github.com/acemq/acemq-gen/runtime/crypto"
	"github.com/acemq/acemq-gen/runtime/internal/codecbound"
)

// panickingInner is JSON that panics with "boom" in Encode and Decode.
type panickingInner struct{ acemq.JSONCodec }

func (panickingInner) Encode(any) ([]byte, error) { panic("boom") } //acemqvet:ignore interceptorpanic the test proves it is recovered
func (panickingInner) Decode([]byte, any) error   { panic("boom") } //acemqvet:ignore interceptorpanic the test proves it is recovered

// The Keyring is a concrete type with no method a user supplies, so what can
// panic inside an encrypted codec is the inner codec: the encrypted codec's
// Send fails naming it, and a consumer parks the message.
func TestPanickingCodecInsideAnEncryptedCodecIsASendErrorAndAParkedMessage(t *testing.T) {
	kr, err := crypto.NewKeyring(crypto.Key{ID: "2026-01", Secret: bytes.Repeat([]byte{7}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	conn, _ := acemqtest.Connect(t)
	if err := conn.DeclareQueue(t.Context(), "billing"); err != nil {
		t.Fatal(err)
	}
	err = acemq.NewPublisher(conn, "", "billing", acemq.PublishWith[order](crypto.Wrap(panickingInner{}, kr))).Send(t.Context(), order{ID: "1"})
	if want := "acemq: the " + crypto.ContentType + " codec panicked: boom"; err == nil || err.Error() != want {
		t.Fatalf("Send: %v, want %q", err, want)
	}
	if err := acemq.NewPublisher(conn, "", "billing", acemq.PublishWith[order](crypto.Wrap(acemq.JSONCodec{}, kr))).Send(t.Context(), order{ID: "1"}); err != nil {
		t.Fatal(err)
	}
	c, err := acemq.Consume(t.Context(), conn, "billing", func(context.Context, acemq.Message[order]) acemq.Ack {
		return acemq.Accept()
	}, acemq.ConsumeWith(crypto.Wrap(panickingInner{}, kr)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	codecbound.Parked(t, conn, "billing", "could not be decoded: the codec panicked: boom")
}
