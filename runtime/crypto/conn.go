package crypto

import (
	"errors"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

var keyringExt = acemq.NewExtension[*Keyring]("crypto.WithKeyring")

// errNoConnKeyring is why KeyringFrom found nothing.
var errNoConnKeyring = errors.New("acemq: this connection has no keyring; pass crypto.WithKeyring(keyring) to acemq.Connect")

// WithKeyring keeps kr on a connection, where generated code for encrypted
// messages finds it with KeyringFrom. Default: no keyring.
func WithKeyring(kr *Keyring) acemq.ConnOption { return keyringExt.Option(kr) }

// KeyringFrom returns the keyring given to acemq.Connect with WithKeyring, or
// an error naming crypto.WithKeyring when there is none.
func KeyringFrom(conn *acemq.Conn) (*Keyring, error) {
	if conn == nil {
		return nil, errNoConnKeyring
	}
	kr, ok := keyringExt.Of(conn.Extensions())
	if !ok || kr == nil {
		return nil, errNoConnKeyring
	}
	return kr, nil
}
