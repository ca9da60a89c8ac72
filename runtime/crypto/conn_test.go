package crypto

import (
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestKeyringFromReturnsTheKeyringGivenToConnect(t *testing.T) {
	kr := mustRing(t, firstKey())
	conn, err := acemq.Connect(t.Context(), "memory://crypto-keyring", WithKeyring(kr))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	got, err := KeyringFrom(conn)
	if err != nil || got != kr {
		t.Fatalf("KeyringFrom = %v, %v", got, err)
	}
}

func TestKeyringFromWithoutTheOptionNamesIt(t *testing.T) {
	conn, err := acemq.Connect(t.Context(), "memory://crypto-no-keyring")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, c := range []*acemq.Conn{conn, nil} {
		if _, err := KeyringFrom(c); err == nil || !strings.Contains(err.Error(), "crypto.WithKeyring") {
			t.Errorf("KeyringFrom: %v", err)
		}
	}
}
