package crypto

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func firstKey() Key  { return Key{ID: "2026-01", Secret: seq(0, 32, 1)} }
func secondKey() Key { return Key{ID: "2026-02", Secret: seq(31, 32, -1)} }

func TestRoundTripHidesThePayloadButNotTheKeyID(t *testing.T) {
	c := Wrap(rawCodec{}, mustRing(t, firstKey()))
	body, err := c.Encode([]byte("top secret payload"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(body, []byte("secret payload")) || !bytes.Contains(body, []byte("2026-01")) {
		t.Fatalf("frame %q", body)
	}
	if body[0] != 0xAE || body[1] != 0x01 || body[2] != 7 {
		t.Fatalf("header bytes % x", body[:3])
	}
	if got := decrypt(t, c, body); string(got) != "top secret payload" {
		t.Fatalf("round trip gave %q", got)
	}
}

func TestTwoEncodingsUseDifferentNonces(t *testing.T) {
	c := Wrap(rawCodec{}, mustRing(t, firstKey()))
	a, _ := c.Encode([]byte("x"))
	b, _ := c.Encode([]byte("x"))
	if bytes.Equal(a, b) {
		t.Fatal("two encodings of the same payload are identical")
	}
}

func TestRotationOverlapReadsOldAndNewKeys(t *testing.T) {
	kr := mustRing(t, firstKey())
	c := Wrap(rawCodec{}, kr)
	old, _ := c.Encode([]byte("old"))
	if err := kr.Add(secondKey()); err != nil {
		t.Fatal(err)
	}
	if kr.Current().ID != "2026-01" {
		t.Fatal("Add changed the current key")
	}
	if err := kr.Use("2026-02"); err != nil {
		t.Fatal(err)
	}
	fresh, _ := c.Encode([]byte("new"))
	if id, _ := KeyIDOf(fresh); id != "2026-02" {
		t.Fatalf("after Use the frame names %q", id)
	}
	if string(decrypt(t, c, old)) != "old" || string(decrypt(t, c, fresh)) != "new" {
		t.Fatal("rotation lost a message")
	}
}

func TestMissingKeyIsFatalNamingItAndTheKeysHeld(t *testing.T) {
	body, _ := Wrap(rawCodec{}, mustRing(t, secondKey())).Encode([]byte("x"))
	var out []byte
	err := Wrap(rawCodec{}, mustRing(t, firstKey())).Decode(body, &out)
	want := `acemq: this message was encrypted with key "2026-02", which is not on this keyring (it holds [2026-01]). Retrying will not help; add the key or dead-letter the message`
	if !acemq.IsFatal(err) || !errors.Is(err, ErrUnknownKey) || err.Error() != want {
		t.Fatalf("error %v", err)
	}
}

func TestTamperedBodyOrSwappedKeyIDFailsToOpen(t *testing.T) {
	same := Key{ID: "2026-99", Secret: seq(0, 32, 1)} // same secret, different id: AAD differs
	kr := mustRing(t, firstKey(), same)
	c := Wrap(rawCodec{}, kr)
	body, _ := c.Encode([]byte("payload"))
	tampered := bytes.Clone(body)
	tampered[len(tampered)-20] ^= 1
	swapped := bytes.Clone(body)
	copy(swapped[3:], "2026-99")
	for name, b := range map[string][]byte{"tampered": tampered, "swapped": swapped} {
		var out []byte
		err := c.Decode(b, &out)
		if !acemq.IsFatal(err) || !strings.Contains(err.Error(), "did not decrypt with key") {
			t.Errorf("%s: error %v", name, err)
		}
	}
}

func TestWrongKeyOfTheSameNameFailsWithTheFamilyWording(t *testing.T) {
	body, _ := Wrap(rawCodec{}, mustRing(t, firstKey())).Encode([]byte("x"))
	impostor := Key{ID: "2026-01", Secret: seq(1, 32, 1)}
	var out []byte
	err := Wrap(rawCodec{}, mustRing(t, impostor)).Decode(body, &out)
	want := `acemq: this message did not decrypt with key "2026-01"; it was altered, or encrypted with a different key of the same name`
	if !acemq.IsFatal(err) || err.Error() != want {
		t.Fatalf("error %v", err)
	}
}

func TestMalformedFramesAreFatalWithTheFamilyWording(t *testing.T) {
	c := Wrap(rawCodec{}, mustRing(t, firstKey()))
	cases := map[string][]byte{
		"acemq: this message was not written by crypto.Codec — ":                []byte(`{"plain":"json"}`),
		"acemq: this message was not written by crypto.Codec — it is empty":     {},
		"acemq: this message is encryption format 2 and this library reads 1":   {0xAE, 0x02, 0x01, 'k'},
		"acemq: this message carries no key id, so nothing can say which key":   {0xAE, 0x01, 0x00, 1, 2, 3},
		"acemq: the key id on this message is truncated":                        {0xAE, 0x01, 0x09, 'a', 'b'},
		`acemq: this message, encrypted with key "ab", is too short to hold a `: {0xAE, 0x01, 0x02, 'a', 'b', 1, 2, 3},
	}
	for prefix, body := range cases {
		var out []byte
		err := c.Decode(body, &out)
		if !acemq.IsFatal(err) || !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("Decode(% x) error %v, want fatal %q", body, err, prefix)
		}
	}
}

func TestCanDecodeClaimsOnlyTheEncryptedContentType(t *testing.T) {
	c := Wrap(rawCodec{}, mustRing(t, firstKey()))
	for ct, want := range map[string]bool{
		"application/vnd.acemq.encrypted": true, "application/vnd.acemq.encrypted; v=1": true,
		"": false, "application/octet-stream": false, "application/json": false,
	} {
		if got := c.CanDecode(ct); got != want {
			t.Errorf("CanDecode(%q) = %v, want %v", ct, got, want)
		}
	}
	if c.ContentType() != "application/vnd.acemq.encrypted" {
		t.Fatalf("ContentType() = %q", c.ContentType())
	}
	if _, ok := c.Inner().(rawCodec); !ok {
		t.Fatalf("Inner() = %T", c.Inner())
	}
}

func TestWrapWithoutKeyringOrInnerFailsInsteadOfPanicking(t *testing.T) {
	if _, err := Wrap(rawCodec{}, nil).Encode([]byte("x")); !errors.Is(err, errNoKeyring) {
		t.Errorf("no keyring: %v", err)
	}
	var out []byte
	if err := Wrap(nil, mustRing(t, firstKey())).Decode([]byte{0xAE}, &out); !errors.Is(err, errNoInner) {
		t.Errorf("no inner: %v", err)
	}
}

func TestRotatingWhileEncodingAndDecodingIsSafe(t *testing.T) {
	kr := mustRing(t, firstKey())
	c := Wrap(rawCodec{}, kr)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				body, err := c.Encode([]byte("x"))
				if err != nil {
					t.Error(err)
					return
				}
				var out []byte
				if err := c.Decode(body, &out); err != nil || string(out) != "x" {
					t.Error(err)
				}
			}
		})
	}
	if err := kr.Add(secondKey()); err != nil {
		t.Fatal(err)
	}
	if err := kr.Use("2026-02"); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if kr.Current().ID != "2026-02" {
		t.Fatal("Use did not take")
	}
}
