// Package codecvectors checks a codec against the AceMQ family's
// cross-language codec vectors; the yaml and toml codecs' tests share it.
package codecvectors

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// Order is the payload of the family's codec vectors, tagged the way
// generated types are.
type Order struct {
	OrderID    string   `json:"orderId"`
	Customer   string   `json:"customer"`
	TotalCents int64    `json:"totalCents"`
	Currency   string   `json:"currency"`
	Paid       bool     `json:"paid,omitempty"`
	Lines      []string `json:"lines,omitempty"`
	Items      []string `json:"items,omitempty"`
}

// sample is one vector of a given format, whichever file it came from.
type sample struct {
	Producer    string
	ContentType string
	Body        string
	Expected    json.RawMessage
}

// vectorFile covers both files' spellings: codec-samples.json uses
// camelCase and one shared document; codec-interop-fixtures.json uses
// snake_case and an expected value per sample.
type vectorFile struct {
	Document json.RawMessage `json:"document"`
	Samples  []struct {
		Format      string          `json:"format"`
		Producer    string          `json:"producer"`
		ContentType string          `json:"contentType"`
		CT          string          `json:"content_type"`
		Body        string          `json:"bodyBase64"`
		BodyB64     string          `json:"body_base64"`
		Expected    json.RawMessage `json:"expected"`
	} `json:"samples"`
}

// loadSamples reads the samples of format from a vector file, each with the
// value it must decode to. Samples of other formats belong to other codecs'
// tests (xml and protobuf have no codec in this project).
func loadSamples(t *testing.T, path, format string) []sample {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file vectorFile
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	var out []sample
	for _, s := range file.Samples {
		if s.Format != format {
			continue
		}
		expected := s.Expected
		if expected == nil {
			expected = file.Document
		}
		out = append(out, sample{Producer: s.Producer, ContentType: s.ContentType + s.CT, Body: s.Body + s.BodyB64, Expected: expected})
	}
	return out
}

// Check decodes every sample of format in the family's codec vector files
// (testdata/vectors/codec-samples.json and codec-interop-fixtures.json,
// found from root, the module root) with c, into a struct tagged like
// generated types and into a map, and compares both with the expected
// document. want is how many samples of format the files hold.
func Check(t *testing.T, root string, c acemq.Codec, format string, want int) {
	t.Helper()
	seen := 0
	for _, name := range []string{"codec-samples.json", "codec-interop-fixtures.json"} {
		f := filepath.Join(root, "testdata", "vectors", name)
		for _, s := range loadSamples(t, f, format) {
			seen++
			t.Run(name+"/"+s.Producer, func(t *testing.T) { checkSample(t, c, s) })
		}
	}
	if seen != want {
		t.Fatalf("found %d %s samples, want %d", seen, format, want)
	}
}

func checkSample(t *testing.T, c acemq.Codec, s sample) {
	if !c.CanDecode(s.ContentType) {
		t.Fatalf("CanDecode(%q) = false", s.ContentType)
	}
	body, err := base64.StdEncoding.DecodeString(s.Body)
	if err != nil {
		t.Fatal(err)
	}
	var want, got Order
	if err := json.Unmarshal(s.Expected, &want); err != nil {
		t.Fatal(err)
	}
	if err := c.Decode(body, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %+v, want %+v", got, want)
	}
	checkAsMap(t, c, body, s.Expected)
}

// checkAsMap decodes into a map and compares it with the expected document
// after a JSON round trip, so number types do not matter.
func checkAsMap(t *testing.T, c acemq.Codec, body []byte, expected json.RawMessage) {
	var m map[string]any
	if err := c.Decode(body, &m); err != nil {
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
