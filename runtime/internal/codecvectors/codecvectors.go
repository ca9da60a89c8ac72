// Package codecvectors checks a codec against the AceMQ family's
// cross-language codec vectors; the yaml, toml and xml codecs' tests share it.
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
	Name        string // the sample's name, where its file gives one
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
		Name        string          `json:"name"`
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
// tests (protobuf has no codec in this project). A file whose samples name
// no format (xml-interop-samples.json) holds samples of the format given.
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
		if s.Format != format && s.Format != "" {
			continue
		}
		expected := s.Expected
		if expected == nil {
			expected = file.Document
		}
		out = append(out, sample{Name: s.Name, Producer: s.Producer, ContentType: s.ContentType + s.CT, Body: s.Body + s.BodyB64, Expected: expected})
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
	if got := Normalise(t, m); !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %v, want %v", got, want)
	}
}

// Normalise is v through JSON as a document: what a decoded value is
// compared as, so number and struct types do not matter.
func Normalise(t *testing.T, v any) map[string]any {
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

// Sample is one vector of a format: where it came from, its content type,
// its body and the JSON value it must decode to.
type Sample struct {
	File        string // the vector file's name
	Name        string // the sample's name, where its file gives one
	Producer    string // "java" or "go"
	ContentType string
	Body        []byte
	Expected    json.RawMessage
}

// Samples returns every sample of format in files, the names of vector files
// under root's testdata/vectors, with its body decoded from base64.
func Samples(t *testing.T, root, format string, files ...string) []Sample {
	t.Helper()
	var out []Sample
	for _, name := range files {
		for _, s := range loadSamples(t, filepath.Join(root, "testdata", "vectors", name), format) {
			body, err := base64.StdEncoding.DecodeString(s.Body)
			if err != nil {
				t.Fatalf("%s/%s: %v", name, s.Producer, err)
			}
			out = append(out, Sample{File: name, Name: s.Name, Producer: s.Producer, ContentType: s.ContentType, Body: body, Expected: s.Expected})
		}
	}
	return out
}
