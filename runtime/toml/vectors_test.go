package toml

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// order is the payload of the family's codec vectors, tagged the way
// generated types are.
type order struct {
	OrderID    string   `json:"orderId"`
	Customer   string   `json:"customer"`
	TotalCents int64    `json:"totalCents"`
	Currency   string   `json:"currency"`
	Paid       bool     `json:"paid,omitempty"`
	Lines      []string `json:"lines,omitempty"`
	Items      []string `json:"items,omitempty"`
}

type sample struct {
	Format      string `json:"format"`
	Producer    string `json:"producer"`
	ContentType string `json:"contentType"`
	CT          string `json:"content_type"`
	Body        string `json:"bodyBase64"`
	BodyB64     string `json:"body_base64"`
	Expected    json.RawMessage
}

// loadSamples reads the toml samples of a vector file with the document
// (or per-sample expected value) each must decode to.
func loadSamples(t *testing.T, path string) []sample {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Document json.RawMessage `json:"document"`
		Samples  []struct {
			sample
			Expected json.RawMessage `json:"expected"`
		} `json:"samples"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	var out []sample
	for _, s := range file.Samples {
		if s.Format != "toml" { // other formats belong to other codecs' tests
			continue
		}
		s.sample.Expected = s.Expected
		if s.Expected == nil {
			s.sample.Expected = file.Document
		}
		if s.ContentType == "" {
			s.ContentType, s.Body = s.CT, s.BodyB64
		}
		out = append(out, s.sample)
	}
	return out
}

func TestDecodesTheFamilyTOMLVectors(t *testing.T) {
	files := []string{"../../testdata/vectors/codec-samples.json", "../../testdata/vectors/codec-interop-fixtures.json"}
	seen := 0
	for _, f := range files {
		for _, s := range loadSamples(t, f) {
			seen++
			t.Run(f+"/"+s.Producer, func(t *testing.T) { checkSample(t, s) })
		}
	}
	if seen != 4 {
		t.Fatalf("found %d toml samples, want 4", seen)
	}
}

func checkSample(t *testing.T, s sample) {
	if !(Codec{}).CanDecode(s.ContentType) {
		t.Fatalf("CanDecode(%q) = false", s.ContentType)
	}
	body, err := base64.StdEncoding.DecodeString(s.Body)
	if err != nil {
		t.Fatal(err)
	}
	var want, got order
	if err := json.Unmarshal(s.Expected, &want); err != nil {
		t.Fatal(err)
	}
	if err := (Codec{}).Decode(body, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %+v, want %+v", got, want)
	}
	checkAsMap(t, body, s.Expected)
}

// checkAsMap decodes into a map and compares it with the expected document
// after a JSON round trip, so number types do not matter.
func checkAsMap(t *testing.T, body []byte, expected json.RawMessage) {
	var m map[string]any
	if err := (Codec{}).Decode(body, &m); err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal(expected, &want); err != nil {
		t.Fatal(err)
	}
	delete(want, "what")
	if got := normalise(t, m); !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %v, want %v", got, want)
	}
}

func normalise(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
