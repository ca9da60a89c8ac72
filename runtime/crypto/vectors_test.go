package crypto

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"
)

func TestFamilyVectorReproducesByteForByte(t *testing.T) {
	key := Key{ID: "2026-01", Secret: seq(0, 32, 1)}
	c := fixedNonce(Wrap(rawCodec{}, mustRing(t, key)), seq(0, 12, 1))
	body, err := c.Encode([]byte("hello"))
	if err != nil {
		t.Fatal(err)
	}
	const want = "ae0107323032362d3031000102030405060708090a0b2f67ba77aa632797b83b1f88ef1394bb9ff6e85641"
	if got := hex.EncodeToString(body); got != want {
		t.Fatalf("frame\n%s\nwant\n%s", got, want)
	}
	wantBody, _ := hex.DecodeString(want)
	if got := decrypt(t, c, wantBody); string(got) != "hello" {
		t.Fatalf("vector decrypts to %q", got)
	}
}

type interopFile struct {
	Keys map[string]struct {
		ID     string `json:"id"`
		Base64 string `json:"base64"`
	} `json:"keys"`
	Samples []struct {
		Library   string `json:"library"`
		Note      string `json:"note"`
		Plaintext string `json:"plaintext"`
		KeyID     string `json:"keyId"`
		Body      string `json:"body"`
	} `json:"samples"`
}

func TestDecryptsEveryCryptoInteropSample(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/vectors/crypto-interop-samples.json")
	if err != nil {
		t.Fatal(err)
	}
	var f interopFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	c := Wrap(rawCodec{}, interopRing(t, f))
	for _, s := range f.Samples {
		body, err := base64.StdEncoding.DecodeString(s.Body)
		if err != nil {
			t.Fatal(err)
		}
		if id, _ := c.KeyIDOf(body); id != s.KeyID {
			t.Errorf("%s %s: key id %q, want %q", s.Library, s.Note, id, s.KeyID)
		}
		if got := decrypt(t, c, body); string(got) != s.Plaintext {
			t.Errorf("%s %s: decrypted %q, want %q", s.Library, s.Note, got, s.Plaintext)
		}
	}
	if len(f.Samples) != 15 {
		t.Fatalf("%d samples, want 15", len(f.Samples))
	}
}

func interopRing(t *testing.T, f interopFile) *Keyring {
	var keys []Key
	for _, name := range []string{"first", "second"} {
		secret, err := base64.StdEncoding.DecodeString(f.Keys[name].Base64)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, Key{ID: f.Keys[name].ID, Secret: secret})
	}
	return mustRing(t, keys...)
}
