package toml

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/codecvectors"
)

func TestEncodeWritesTheGoFamilyBytesInFieldOrder(t *testing.T) {
	b, err := Codec{}.Encode(order{OrderID: "A-1", Customer: "acme", TotalCents: 4250, Currency: "GBP", Paid: true, Lines: []string{"widget", "gasket"}})
	if err != nil {
		t.Fatal(err)
	}
	// codec-samples.json, producer go, format toml.
	want, _ := base64.StdEncoding.DecodeString("b3JkZXJJZCA9ICJBLTEiCmN1c3RvbWVyID0gImFjbWUiCnRvdGFsQ2VudHMgPSA0MjUwCmN1cnJlbmN5ID0gIkdCUCIKcGFpZCA9IHRydWUKbGluZXMgPSBbIndpZGdldCIsICJnYXNrZXQiXQo=")
	if string(b) != string(want) {
		t.Fatalf("encoded\n%s\nwant\n%s", b, want)
	}
}

type shipment struct {
	ID      string    `json:"id"`
	At      time.Time `json:"at"`
	Note    *string   `json:"note"`
	Address struct {
		Line1 string `json:"line1"`
	} `json:"address"`
	Parcels []parcel `json:"parcels"`
	Big     int64    `json:"big"`
	Weight  float64  `json:"weight"`
}

type parcel struct {
	Grams int `json:"grams"`
}

func TestRoundTripKeepsNestedTablesTimesAndLargeIntegers(t *testing.T) {
	in := shipment{ID: "s-1", At: time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC), Big: 1<<62 + 1, Weight: 2.5}
	in.Address.Line1 = "1 High St"
	in.Parcels = []parcel{{Grams: 10}, {Grams: 20}}
	codecvectors.RoundTrip(t, Codec{}, in)
}

func TestEncodeRefusesANonTablePayloadAsFatal(t *testing.T) {
	for _, payload := range []any{[]string{"a", "b"}, "text", 42, nil} {
		_, err := Codec{}.Encode(payload)
		if !acemq.IsFatal(err) || !errors.Is(err, errNotTable) {
			t.Errorf("Encode(%#v) error %v, want a fatal errNotTable", payload, err)
		}
	}
}

func TestEncodeAcceptsMapsAndPointersToStructs(t *testing.T) {
	b, err := Codec{}.Encode(map[string]any{"b": 1, "a": "x"})
	if err != nil || string(b) != "a = \"x\"\nb = 1\n" {
		t.Fatalf("map encoded %q, %v", b, err)
	}
	if _, err := (Codec{}).Encode(&order{OrderID: "A"}); err != nil {
		t.Fatalf("pointer to struct: %v", err)
	}
}

func TestDecodeIntoAMapKeepsTOMLTypes(t *testing.T) {
	var m map[string]any
	if err := (Codec{}).Decode([]byte("n = 9007199254740993\n"), &m); err != nil {
		t.Fatal(err)
	}
	if m["n"] != int64(9007199254740993) {
		t.Fatalf("n = %#v", m["n"])
	}
}

func TestDecodeOfMalformedBodyIsFatal(t *testing.T) {
	var out order
	for _, body := range []string{"country = NO\n", "orderId = 5\n"} {
		err := Codec{}.Decode([]byte(body), &out)
		if !acemq.IsFatal(err) || !strings.HasPrefix(err.Error(), "acemq: this message is not TOML that reads as *codecvectors.Order: ") {
			t.Errorf("Decode(%q) error %v, want fatal", body, err)
		}
	}
}

func TestCanDecodeClaimsOnlyTOMLTypes(t *testing.T) {
	codecvectors.ExpectClaims(t, Codec{}, map[string]bool{
		"application/toml": true, "text/toml": true, "application/vnd.acme+toml": true,
		"APPLICATION/TOML; charset=utf-8": true,
		"":                                false, "application/json": false, "application/yaml": false,
	})
}

func TestContentTypeIsApplicationTOML(t *testing.T) {
	if got := (Codec{}).ContentType(); got != "application/toml" {
		t.Fatalf("ContentType() = %q", got)
	}
}

func TestEncodeWritesKeysTheTagSyntaxCannotCarry(t *testing.T) {
	b, err := Codec{}.Encode(map[string]any{"a,b": 1, "-": 2})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := (Codec{}).Decode(b, &m); err != nil || m["a,b"] != int64(1) || m["-"] != int64(2) {
		t.Fatalf("decoded %v (%v) from\n%s", m, err, b)
	}
}
