package ops

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/generator/contractspec"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/avro"
	"github.com/acemq/acemq-gen/runtime/crypto"
)

// KeysEnv names the environment variable holding the keys of encrypted
// messages: id=base64secret,… (the first is the keyring's current key).
const KeysEnv = "ACEMQ_KEYS"

// Decoders builds and keeps the contract codec of each message, with the
// registry and the keyring the command was given. Used by one goroutine.
type Decoders struct {
	registry avro.Registry   // nil without --registry
	keyring  *crypto.Keyring // nil without ACEMQ_KEYS
	codecs   map[string]acemq.Codec
	conn     *acemq.Conn // carries registry and keyring to the codec builders; made at the first build
}

// NewDecoders reads --registry and ACEMQ_KEYS; neither secret ever reaches
// an error message.
func NewDecoders(registryURL string) (*Decoders, error) {
	d := &Decoders{codecs: map[string]acemq.Codec{}}
	if registryURL != "" {
		reg, err := registryAt(registryURL)
		if err != nil {
			return nil, err
		}
		d.registry = reg
	}
	if v := os.Getenv(KeysEnv); v != "" {
		kr, err := ParseKeys(v)
		if err != nil {
			return nil, err
		}
		d.keyring = kr
	}
	return d, nil
}

// registryAt is the Confluent registry at raw, its credentials (if any)
// moved into basic auth.
func registryAt(raw string) (avro.Registry, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.New("acemq-gen: the --registry URL does not parse")
	}
	var opts []avro.ConfluentOption
	if u.User != nil {
		pass, _ := u.User.Password()
		opts = append(opts, avro.WithBasicAuth(u.User.Username(), pass))
		u.User = nil
	}
	return avro.NewConfluentRegistry(u.String(), opts...)
}

// ParseKeys reads id=base64secret,… into a keyring. An error names a bad
// entry by its position only: an entry written without its id, or as
// secret=id, would otherwise echo the secret.
func ParseKeys(v string) (*crypto.Keyring, error) {
	var keys []crypto.Key
	seen := map[string]bool{}
	for i, part := range strings.Split(v, ",") {
		k, err := parseKey(i+1, part)
		if err != nil {
			return nil, err
		}
		if seen[k.ID] {
			return nil, errRepeatedID(i + 1)
		}
		seen[k.ID] = true
		keys = append(keys, k)
	}
	kr, err := crypto.NewKeyring(keys...)
	if err != nil { // each key was checked alone: not reached
		return nil, errNoKeyring()
	}
	return kr, nil
}

// parseKey reads the n-th entry, id=base64secret, saying what is wrong
// with it without any of its text.
func parseKey(n int, part string) (crypto.Key, error) {
	id, secret, ok := strings.Cut(strings.TrimSpace(part), "=")
	if !ok || id == "" || secret == "" {
		return crypto.Key{}, errBadEntry(n)
	}
	raw, err := base64.StdEncoding.DecodeString(secret)
	if err != nil {
		return crypto.Key{}, errNotBase64(n)
	}
	k := crypto.Key{ID: id, Secret: raw}
	if _, err := crypto.NewKeyring(k); err != nil {
		return crypto.Key{}, errUnusable(n, len(raw))
	}
	return k, nil
}

// The errors of ParseKeys: fixed sentences with numbers only.

func errBadEntry(n int) error {
	return fmt.Errorf("acemq-gen: %s entry %d is not id=base64secret", KeysEnv, n)
}

func errNotBase64(n int) error {
	return fmt.Errorf("acemq-gen: the secret of %s entry %d is not base64 (an entry is id=base64secret)", KeysEnv, n)
}

func errUnusable(n, size int) error {
	return fmt.Errorf("acemq-gen: %s entry %d is not a usable key: its id must be 1 to %d bytes without NUL, its secret the base64 of 16, 24 or 32 bytes (it is %d)",
		KeysEnv, n, crypto.MaxKeyIDBytes, size)
}

func errRepeatedID(n int) error {
	return fmt.Errorf("acemq-gen: %s entry %d repeats the id of an earlier entry", KeysEnv, n)
}

func errNoKeyring() error { return fmt.Errorf("acemq-gen: %s holds no usable keyring", KeysEnv) }

// codec is e's contract codec.
func (d *Decoders) codec(e generator.Entry) (acemq.Codec, error) {
	key := e.Domain + "/" + e.Name
	if c, ok := d.codecs[key]; ok {
		return c, nil
	}
	c, err := d.build(e)
	if err != nil {
		return nil, err
	}
	d.codecs[key] = c
	return c, nil
}

// build is e's contract codec, built by contractspec.Codec, the builder
// generated code holds, on a connection carrying the command's registry and
// keyring.
func (d *Decoders) build(e generator.Entry) (acemq.Codec, error) {
	if e.Subject != "" && d.registry == nil {
		return nil, fmt.Errorf("%s is %s: give --registry URL to read it", e.Name, e.Codec)
	}
	if e.Encrypted && d.keyring == nil {
		return nil, fmt.Errorf("%s is encrypted: set %s to id=base64secret,… to read it", e.Name, KeysEnv)
	}
	conn, err := d.carrier()
	if err != nil {
		return nil, err
	}
	return contractspec.Codec(e)(conn)
}

// carrier is the memory connection that carries the registry and the
// keyring to the codec builders; it is made once and never sends anything.
func (d *Decoders) carrier() (*acemq.Conn, error) {
	if d.conn != nil {
		return d.conn, nil
	}
	var opts []acemq.ConnOption
	if d.registry != nil {
		opts = append(opts, avro.WithRegistry(d.registry))
	}
	if d.keyring != nil {
		opts = append(opts, crypto.WithKeyring(d.keyring))
	}
	conn, err := acemq.Connect(context.Background(), "memory://acemq-gen-codecs-"+acemq.NewUUID(), opts...)
	if err != nil {
		return nil, fmt.Errorf("acemq-gen: %w", err)
	}
	d.conn = conn
	return conn, nil
}

// Decode reads body as e's payload, in a shape encoding/json can print: a
// string or []byte for a raw codec's one value (text, bytes), else what the
// codec gives an *any; contentType "" is the codec's own.
func (d *Decoders) Decode(e generator.Entry, contentType string, body []byte) (any, error) {
	c, err := d.codec(e)
	if err != nil {
		return nil, err
	}
	if contentType == "" {
		contentType = c.ContentType()
	}
	switch e.Raw {
	case "string":
		var s string
		err = acemq.DecodeFor(c, contentType, body, &s)
		return s, err
	case "bytes":
		var b []byte
		err = acemq.DecodeFor(c, contentType, body, &b)
		return b, err
	}
	var v any
	err = acemq.DecodeFor(c, contentType, body, &v)
	return printable(v), err
}

// printable turns the map[any]any and []byte values some Decoders produce
// into what encoding/json prints.
func printable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = printable(e)
		}
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = printable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = printable(e)
		}
	}
	return v
}
