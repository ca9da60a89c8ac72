package yaml

import (
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/codecvectors"
)

func TestEncodeWritesBlockStyleUnderJSONTagNames(t *testing.T) {
	b, err := Codec{}.Encode(order{OrderID: "A-1", Customer: "acme", TotalCents: 4250, Currency: "GBP", Paid: true, Lines: []string{"widget", "gasket"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "orderId: A-1\ncustomer: acme\ntotalCents: 4250\ncurrency: GBP\npaid: true\nlines:\n- widget\n- gasket\n"
	if string(b) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", b, want)
	}
}

func TestRoundTripReturnsTheSameValue(t *testing.T) {
	codecvectors.RoundTrip(t, Codec{}, order{OrderID: "A-1", Customer: "Ana Söderström", TotalCents: -7, Items: []string{"a"}})
}

func TestDecodeOfMalformedBodyIsFatal(t *testing.T) {
	var out order
	err := Codec{}.Decode([]byte("orderId: [unclosed"), &out)
	if !acemq.IsFatal(err) {
		t.Fatalf("Decode error %v is not fatal", err)
	}
	if !strings.HasPrefix(err.Error(), "acemq: this message is not YAML that reads as *codecvectors.Order: ") {
		t.Fatalf("error %q", err)
	}
}

func TestCanDecodeClaimsOnlyYAMLTypes(t *testing.T) {
	codecvectors.ExpectClaims(t, Codec{}, map[string]bool{
		"application/yaml": true, "application/x-yaml": true, "text/x-yaml": true,
		"text/yaml": true, "application/vnd.acme.order+yaml": true,
		"Application/YAML; charset=utf-8": true,
		"":                                false, "application/json": false, "application/toml": false,
		"text/plain": false, "application/yamlish": false,
	})
}

func TestContentTypeIsApplicationYAML(t *testing.T) {
	if got := (Codec{}).ContentType(); got != "application/yaml" {
		t.Fatalf("ContentType() = %q", got)
	}
}

func TestUnquotedNOIsACountryNotABoolean(t *testing.T) {
	var m map[string]any
	if err := (Codec{}).Decode([]byte("country: NO\n"), &m); err != nil {
		t.Fatal(err)
	}
	if m["country"] != "NO" {
		t.Fatalf("country = %#v; YAML 1.1's Norway problem", m["country"])
	}
}

type shipment struct {
	ID      string    `json:"id"`
	At      time.Time `json:"at"`
	Note    *string   `json:"note,omitempty"`
	Parcels []parcel  `json:"parcels"`
	Big     int64     `json:"big"`
}

type parcel struct {
	Grams int `json:"grams"`
}

func TestRoundTripKeepsNestedListsTimesAndLargeIntegers(t *testing.T) {
	in := shipment{ID: "s-1", At: time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC), Parcels: []parcel{{10}, {20}}, Big: 1<<62 + 1}
	b := codecvectors.RoundTrip(t, Codec{}, in)
	if strings.Contains(string(b), "{") || strings.Contains(string(b), "[") {
		t.Fatalf("not block style:\n%s", b)
	}
}
