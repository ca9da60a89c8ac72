package crypto

import (
	"errors"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqtest"
)

func TestKeyringFromReturnsTheKeyringGivenToConnect(t *testing.T) {
	kr := mustRing(t, firstKey())
	conn, _ := acemqtest.Connect(t, WithKeyring(kr))
	got, err := KeyringFrom(conn)
	if err != nil || got != kr {
		t.Fatalf("KeyringFrom = %v, %v", got, err)
	}
}

func TestKeyringFromWithoutTheOptionNamesIt(t *testing.T) {
	conn, _ := acemqtest.Connect(t)
	for _, c := range []*acemq.Conn{conn, nil} {
		if _, err := KeyringFrom(c); err == nil || !strings.Contains(err.Error(), "crypto.WithKeyring") {
			t.Errorf("KeyringFrom: %v", err)
		}
	}
}

func TestEncryptedWrapsTheInnerCodecWithTheConnectionsKeyring(t *testing.T) {
	kr := mustRing(t, firstKey())
	conn, _ := acemqtest.Connect(t, WithKeyring(kr))
	inner := func(*acemq.Conn) (acemq.Codec, error) { return acemq.JSONCodec{}, nil }
	c, err := Encrypted(inner)(conn)
	if cc, ok := c.(*Codec); err != nil || !ok || cc.Inner() != (acemq.JSONCodec{}) {
		t.Fatalf("Encrypted = %v, %v; want the JSON codec wrapped", c, err)
	}
	if _, err := Encrypted(inner)(nil); err == nil || !strings.Contains(err.Error(), "crypto.WithKeyring") {
		t.Fatalf("without a keyring: %v", err)
	}
	failing := func(*acemq.Conn) (acemq.Codec, error) { return nil, errInner }
	if _, err := Encrypted(failing)(nil); err != errInner {
		t.Fatalf("the inner builder's error did not come first: %v", err)
	}
}

var errInner = errors.New("inner")
