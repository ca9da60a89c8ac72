package crypto

import (
	"crypto/rand"
	"fmt"
	"strings"
	"unicode/utf8"
)

const (
	// KeySize is the length in bytes of a key NewKey draws: AES-256.
	KeySize = 32
	// MaxKeyIDBytes is the longest key id, in UTF-8 bytes, the frame carries.
	MaxKeyIDBytes = 255
)

// Key is one AES key and the id that names it on the wire. Secret must be 16,
// 24 or 32 bytes (AES-128, -192 or -256). A Key never prints its secret, under
// any fmt verb.
type Key struct {
	// ID names the key in every frame it seals: 1 to 255 UTF-8 bytes, no NUL.
	ID string
	// Secret is the AES key itself.
	Secret []byte
}

// NewKey returns a key named id with KeySize bytes drawn from crypto/rand.
func NewKey(id string) (Key, error) {
	if err := checkID(id); err != nil {
		return Key{}, err
	}
	secret := make([]byte, KeySize)
	_, _ = rand.Read(secret) // never fails: crypto/rand aborts the process instead
	return Key{ID: id, Secret: secret}, nil
}

// validate reports why k cannot seal or open a frame.
func (k Key) validate() error {
	if err := checkID(k.ID); err != nil {
		return err
	}
	switch len(k.Secret) {
	case 16, 24, 32:
		return nil
	}
	return fmt.Errorf("acemq: key %q has a %d-byte secret, and AES takes 16, 24 or 32 bytes; "+
		"derive a key of that length from a passphrase with a key derivation function (HKDF, scrypt, Argon2) "+
		"rather than padding or hashing it into shape", k.ID, len(k.Secret))
}

func checkID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("acemq: a key needs an id: it travels on every message so the consumer can pick the key that opens it")
	case len(id) > MaxKeyIDBytes:
		return fmt.Errorf("acemq: a key id is at most %d UTF-8 bytes and this one is %d", MaxKeyIDBytes, len(id))
	case strings.IndexByte(id, 0) >= 0:
		return fmt.Errorf("acemq: key id %q contains a NUL byte", id)
	case !utf8.ValidString(id):
		return fmt.Errorf("acemq: key id %q is not valid UTF-8", id)
	}
	return nil
}

// clone returns k with a copy of its secret, so the caller's slice can change.
func (k Key) clone() Key {
	k.Secret = append([]byte(nil), k.Secret...)
	return k
}

// String describes the key without its secret:
// crypto.Key{ID: "2026-01", Secret: 32 bytes, hidden}.
func (k Key) String() string {
	return fmt.Sprintf("crypto.Key{ID: %q, Secret: %d bytes, hidden}", k.ID, len(k.Secret))
}

// GoString is String, so %#v hides the secret too.
func (k Key) GoString() string { return k.String() }

// Format writes String for every verb (%v %+v %#v %s %q %x %X %d ...), so no
// verb can print the secret.
func (k Key) Format(f fmt.State, verb rune) { writeSafe(f, verb, k.String()) }

// writeSafe writes s, quoted for %q, whatever the verb.
func writeSafe(f fmt.State, verb rune, s string) {
	if verb == 'q' {
		s = fmt.Sprintf("%q", s)
	}
	_, _ = fmt.Fprint(f, s)
}
