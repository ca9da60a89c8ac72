package crypto

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
)

// ContentType is what Codec writes on every message. The inner codec's type
// is deliberately hidden: it is inside the ciphertext.
const ContentType = "application/vnd.acemq.encrypted"

// Codec encodes with an inner codec and seals the bytes with the keyring's
// current key; it opens a frame with the key the frame names and decodes the
// plaintext with the inner codec. Safe for concurrent use.
type Codec struct {
	inner   acemq.Codec
	keyring *Keyring
	nonces  io.Reader // crypto/rand.Reader; a test seam for the family vector
}

var _ acemq.Codec = (*Codec)(nil)

// Wrap returns a codec that encrypts what inner encodes with keyring's current
// key and decrypts with whichever key on keyring a message names.
func Wrap(inner acemq.Codec, keyring *Keyring) *Codec {
	return &Codec{inner: inner, keyring: keyring, nonces: rand.Reader}
}

// Inner returns the codec Wrap was given.
func (c *Codec) Inner() acemq.Codec { return c.inner }

// KeyIDOf returns the id of the key that sealed body, without decrypting it.
func (c *Codec) KeyIDOf(body []byte) (string, error) { return KeyIDOf(body) }

// ContentType returns "application/vnd.acemq.encrypted".
func (c *Codec) ContentType() string { return ContentType }

// CanDecode reports whether contentType begins
// "application/vnd.acemq.encrypted" (case-insensitively). It is false for "".
func (c *Codec) CanDecode(contentType string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), ContentType)
}

// Encode encodes payload with the inner codec and seals the bytes with the
// current key under a fresh random nonce.
func (c *Codec) Encode(payload any) ([]byte, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	plain, err := c.inner.Encode(payload)
	if err != nil {
		return nil, err
	}
	return c.seal(c.keyring.currentEntry(), plain)
}

func (c *Codec) seal(e *entry, plain []byte) ([]byte, error) {
	out := appendHeader(make([]byte, 0, 3+len(e.key.ID)+nonceSize+len(plain)+tagSize), e.key.ID)
	headerLen := len(out)
	out = out[:headerLen+nonceSize]
	if _, err := io.ReadFull(c.nonces, out[headerLen:]); err != nil {
		return nil, fmt.Errorf("acemq: no nonce for an encrypted message: %w", err)
	}
	return e.aead.Seal(out, out[headerLen:], plain, out[:headerLen]), nil
}

// Decode opens body with the key it names and decodes the plaintext into dst
// with the inner codec, which applies its own limits to the plaintext. A
// frame that is malformed, names a key not on the keyring, fails
// authentication or is longer than the process-wide acemq.DecodeLimits
// MaxBody is a fatal error.
func (c *Codec) Decode(body []byte, dst any) error {
	if err := c.check(); err != nil {
		return err
	}
	if err := decodelimit.Process().CheckBody("encrypted", body); err != nil {
		return err
	}
	plain, err := c.open(body)
	if err != nil {
		return err
	}
	return c.inner.Decode(plain, dst)
}

func (c *Codec) open(body []byte) ([]byte, error) {
	h, err := headerLen(body)
	if err != nil {
		return nil, err
	}
	e, err := c.keyring.entry(body[3:h])
	if err != nil {
		return nil, err
	}
	plain, err := e.aead.Open(nil, body[h:h+nonceSize], body[h+nonceSize:], body[:h])
	if err != nil {
		return nil, acemq.Fatalf("acemq: this message did not decrypt with key %q; it was altered, or encrypted with a different key of the same name", body[3:h])
	}
	return plain, nil
}

var (
	errNoInner   = errors.New("acemq: crypto.Wrap was given no inner codec")
	errNoKeyring = errors.New("acemq: crypto.Wrap was given no keyring")
)

func (c *Codec) check() error {
	switch {
	case c.inner == nil:
		return acemq.Fatal(errNoInner)
	case c.keyring == nil || c.keyring.s == nil:
		return acemq.Fatal(errNoKeyring)
	}
	return nil
}

// String describes the codec by its inner codec's type and its keyring's ids.
func (c Codec) String() string {
	ring := "<nil>"
	if c.keyring != nil {
		ring = c.keyring.String()
	}
	return fmt.Sprintf("crypto.Codec{inner: %T, keyring: %s}", c.inner, ring)
}

// GoString is String.
func (c Codec) GoString() string { return c.String() }

// Format writes String for every verb, so no verb can print a secret.
func (c Codec) Format(f fmt.State, verb rune) { writeSafe(f, verb, c.String()) }
