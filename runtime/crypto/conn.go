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

// Encrypted returns a codec builder (the form generated code gives an
// encrypted message's specification) that wraps the codec inner builds in
// Wrap with the keyring conn carries: inner's error comes first, then
// KeyringFrom's.
func Encrypted(inner func(*acemq.Conn) (acemq.Codec, error)) func(*acemq.Conn) (acemq.Codec, error) {
	return func(conn *acemq.Conn) (acemq.Codec, error) {
		c, err := inner(conn)
		if err != nil {
			return nil, err
		}
		kr, err := KeyringFrom(conn)
		if err != nil {
			return nil, err
		}
		return Wrap(c, kr), nil
	}
}
