package crypto

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestKeyringAcceptsTheThreeAESLengths(t *testing.T) {
	for _, n := range []int{16, 24, 32} {
		kr := mustRing(t, Key{ID: "k", Secret: seq(0, n, 1)})
		c := Wrap(rawCodec{}, kr)
		body, err := c.Encode([]byte("x"))
		if err != nil || string(decrypt(t, c, body)) != "x" {
			t.Fatalf("%d-byte key: %v", n, err)
		}
	}
}

func TestKeyringRefusesOtherSecretLengthsMentioningKeyDerivation(t *testing.T) {
	for _, n := range []int{0, 8, 31, 33, 64} {
		_, err := NewKeyring(Key{ID: "k", Secret: seq(0, n, 1)})
		if err == nil || !strings.Contains(err.Error(), "key derivation") || !strings.Contains(err.Error(), "32") {
			t.Errorf("%d-byte secret: %v", n, err)
		}
	}
}

func TestKeyringRefusesBadKeyIDs(t *testing.T) {
	for id, want := range map[string]string{
		"":                       "needs an id",
		strings.Repeat("x", 256): "at most 255",
		"a\x00b":                 "NUL",
		"\xff":                   "UTF-8",
	} {
		_, err := NewKeyring(Key{ID: id, Secret: seq(0, 32, 1)})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("id %q: %v, want mention of %q", id, err, want)
		}
	}
	if _, err := NewKeyring(Key{ID: strings.Repeat("x", 255), Secret: seq(0, 32, 1)}); err != nil {
		t.Errorf("a 255-byte id was refused: %v", err)
	}
}

func TestKeyringRefusesNoKeysAndDuplicates(t *testing.T) {
	if _, err := NewKeyring(); err == nil {
		t.Error("an empty keyring was accepted")
	}
	if _, err := NewKeyring(firstKey(), firstKey()); err == nil {
		t.Error("a duplicate id was accepted")
	}
}

func TestKeyringAccessors(t *testing.T) {
	kr := mustRing(t, firstKey(), secondKey())
	if got := kr.IDs(); !reflect.DeepEqual(got, []string{"2026-01", "2026-02"}) {
		t.Fatalf("IDs() = %v", got)
	}
	if kr.Current().ID != "2026-01" {
		t.Fatalf("current %q", kr.Current().ID)
	}
	k, err := kr.Get("2026-02")
	if err != nil || !bytes.Equal(k.Secret, secondKey().Secret) {
		t.Fatalf("Get: %v", err)
	}
	if _, err := kr.Get("nope"); !acemq.IsFatal(err) || !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("Get(missing): %v", err)
	}
	if err := kr.Use("nope"); err == nil {
		t.Fatal("Use(missing) succeeded")
	}
}

func TestKeyringCopiesSecrets(t *testing.T) {
	secret := seq(0, 32, 1)
	kr := mustRing(t, Key{ID: "k", Secret: secret})
	secret[0] = 99
	got := kr.Current()
	got.Secret[1] = 99
	if k, _ := kr.Get("k"); k.Secret[0] != 0 || k.Secret[1] != 1 {
		t.Fatal("the keyring shares its secret with a caller")
	}
}

func TestNewKeyDrawsARandom32ByteSecret(t *testing.T) {
	a, err := NewKey("a")
	b, _ := NewKey("a")
	if err != nil || len(a.Secret) != KeySize || bytes.Equal(a.Secret, b.Secret) {
		t.Fatalf("NewKey: %v, %d bytes", err, len(a.Secret))
	}
	if _, err := NewKey(""); err == nil {
		t.Fatal("NewKey accepted an empty id")
	}
}

func TestNoValuePrintsASecretUnderAnyVerb(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789ABCDEF")
	key := Key{ID: "2026-01", Secret: secret}
	kr := mustRing(t, key)
	c := Wrap(rawCodec{}, kr)
	values := []any{key, &key, []Key{key}, kr, *kr, c, *c, struct{ K Key }{key}, map[string]Key{"k": key}}
	verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "% x", "%d", "%T%v"}
	for _, v := range values {
		for _, verb := range verbs {
			out := fmt.Sprintf(verb, v)
			if leaks(out, secret) {
				t.Errorf("%s of %T prints the secret: %s", verb, v, out)
			}
		}
	}
	if got := fmt.Sprint(key); !strings.Contains(got, "2026-01") || !strings.Contains(got, "hidden") {
		t.Errorf("Key prints %q", got)
	}
}

// leaks reports whether out carries secret in any form a verb could print it.
func leaks(out string, secret []byte) bool {
	forms := []string{string(secret), fmt.Sprintf("%x", secret), fmt.Sprintf("%X", secret),
		fmt.Sprintf("%v", secret), fmt.Sprintf("% x", secret), fmt.Sprintf("%d", secret[:4])}
	for _, f := range forms {
		if strings.Contains(out, f) || strings.Contains(out, strings.Trim(f, "[]")) {
			return true
		}
	}
	return strings.Contains(out, "48 49 50 51") || strings.Contains(out, "0x30, 0x31")
}
