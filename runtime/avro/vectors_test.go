package avro

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/codecvectors"
)

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

func b64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// asJSON normalises a decoded value for comparison with a vector's JSON.
func asJSON(t *testing.T, v any) map[string]any {
	t.Helper()
	m := codecvectors.Normalise(t, v)
	delete(m, "what")
	return m
}

type resolutionCase struct {
	Case         string          `json:"case"`
	SchemaID     int             `json:"schemaId"`
	WriterSchema string          `json:"writerSchema"`
	ReaderSchema string          `json:"readerSchema"`
	Body         string          `json:"bodyBase64"`
	Resolved     json.RawMessage `json:"resolved"`
	WriterShape  json.RawMessage `json:"writerShape"`
}

func TestAvroResolutionFixturesDecodeToBothColumns(t *testing.T) {
	var f struct{ Cases []resolutionCase }
	readJSON(t, "../../testdata/vectors/avro-resolution-fixtures.json", &f)
	if len(f.Cases) != 2 {
		t.Fatalf("%d cases, want 2", len(f.Cases))
	}
	for _, c := range f.Cases {
		t.Run(c.Case, func(t *testing.T) {
			reg := newFixedRegistry(map[int]string{c.SchemaID: c.WriterSchema})
			body := b64(t, c.Body)
			if id, _, err := splitFrame(body); err != nil || id != c.SchemaID {
				t.Fatalf("frame id %d (%v), want %d", id, err, c.SchemaID)
			}
			plain := must[*Codec](t)(Registered(reg, "orders", c.ReaderSchema))
			resolving := must[*Codec](t)(Registered(reg, "orders", c.ReaderSchema, ReaderSchema(c.ReaderSchema)))
			checkDecode(t, plain, body, c.WriterShape)
			checkDecode(t, resolving, body, c.Resolved)
		})
	}
}

func checkDecode(t *testing.T, c *Codec, body []byte, want json.RawMessage) {
	t.Helper()
	var got map[string]any
	if err := c.Decode(body, &got); err != nil {
		t.Fatal(err)
	}
	var w map[string]any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if g := asJSON(t, got); !reflect.DeepEqual(g, w) {
		t.Fatalf("decoded %v, want %v", g, w)
	}
}

// sampleRecord is the vectors' order, tagged the way generated types are.
type sampleRecord struct {
	OrderID    string `avro:"orderId" json:"orderId"`
	Customer   string `avro:"customer" json:"customer,omitempty"`
	TotalCents int64  `avro:"totalCents" json:"totalCents"`
	Currency   string `avro:"currency" json:"currency,omitempty"`
	Paid       bool   `avro:"paid" json:"paid,omitempty"`
}

type interopRecord struct {
	OrderID    string `avro:"orderId" json:"orderId"`
	TotalCents int64  `avro:"totalCents" json:"totalCents"`
	Tenant     string `avro:"tenant" json:"tenant"`
}

func TestCodecSamplesDecodeAndReencodeByteForByte(t *testing.T) {
	var f struct {
		Record     json.RawMessage `json:"record"`
		AvroSchema json.RawMessage `json:"avroSchema"`
		Samples    []struct{ Producer, Format, ContentType, BodyBase64 string }
	}
	readJSON(t, "../../testdata/vectors/codec-samples.json", &f)
	seen := 0
	for _, s := range f.Samples {
		// yaml, toml and xml samples are runtime/yaml's, runtime/toml's and
		// runtime/xml's; protobuf has no codec in this project.
		if s.Format != "avro-fixed" && s.Format != "avro-registered" {
			continue
		}
		seen++
		c := sampleCodec(t, s.Format, string(f.AvroSchema), 1)
		checkSample[sampleRecord](t, c, s.ContentType, b64(t, s.BodyBase64), f.Record)
	}
	if seen != 4 {
		t.Fatalf("%d avro samples, want 4", seen)
	}
}

func TestCodecInteropFixturesDecodeAndReencodeByteForByte(t *testing.T) {
	var f struct {
		AvroSchema string `json:"avro_schema"`
		Samples    []struct {
			Format, Producer, ContentType string
			Body                          string          `json:"body_base64"`
			CT                            string          `json:"content_type"`
			Expected                      json.RawMessage `json:"expected"`
		}
	}
	readJSON(t, "../../testdata/vectors/codec-interop-fixtures.json", &f)
	seen := 0
	for _, s := range f.Samples {
		// yaml, toml: their own packages; xml, protobuf: no codec in this project.
		if s.Format != "avro" && s.Format != "avro-registered" {
			continue
		}
		seen++
		c := sampleCodec(t, s.Format, f.AvroSchema, 7)
		checkSample[interopRecord](t, c, s.CT, b64(t, s.Body), s.Expected)
	}
	if seen != 4 {
		t.Fatalf("%d avro samples, want 4", seen)
	}
}

// sampleCodec builds the codec a sample's format names; a registered codec
// registers its schema in a memory registry under id, the sample's.
func sampleCodec(t *testing.T, format, schema string, id int) *Codec {
	if format == "avro-fixed" || format == "avro" {
		return must[*Codec](t)(Of(schema))
	}
	reg := NewMemoryRegistry()
	for i := 1; i < id; i++ { // occupy ids below the sample's
		filler := `{"type":"fixed","name":"F` + string(rune('a'+i)) + `","size":1}`
		must[SchemaDefinition](t)(reg.Register(t.Context(), "filler", FormatAvro, filler))
	}
	c := must[*Codec](t)(Registered(reg, "orders", schema))
	if got := must[int](t)(c.SchemaID(t.Context())); got != id {
		t.Fatalf("registered as %d, want %d", got, id)
	}
	return c
}

func checkSample[T any](t *testing.T, c *Codec, ct string, body []byte, want json.RawMessage) {
	t.Helper()
	if !c.CanDecode(ct) || c.ContentType() != ct {
		t.Fatalf("%s codec: CanDecode(%q) = false or ContentType %q", c.ContentType(), ct, c.ContentType())
	}
	var rec T
	if err := c.Decode(body, &rec); err != nil {
		t.Fatal(err)
	}
	if g, w := asJSON(t, rec), asJSON(t, want); !reflect.DeepEqual(g, w) {
		t.Fatalf("decoded %v, want %v", g, w)
	}
	again := must[[]byte](t)(c.Encode(rec))
	if string(again) != string(body) {
		t.Fatalf("re-encoded % x, want % x", again, body)
	}
}
