package acemq

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
)

// placed is shaped as generated code shapes a record: json tags, optional
// fields as pointers, and the contract's schema with defaults.
type placed struct {
	OrderID string            `avro:"orderId" json:"orderId"`
	Cents   int64             `avro:"cents" json:"cents"`
	Lines   []placedLine      `avro:"lines" json:"lines"`
	Note    *string           `avro:"note" json:"note"`
	Region  string            `avro:"region" json:"region"`
	Labels  map[string]string `avro:"labels" json:"labels"`
	Total   *placedLine       `avro:"total" json:"total"`
}

func (placed) AvroFullSchema() string {
	return `{"type":"record","name":"shop.Placed","fields":[{"name":"orderId","type":"string"},{"name":"cents","type":"long"},` +
		`{"name":"lines","type":{"type":"array","items":{"type":"record","name":"shop.Line","fields":[{"name":"sku","type":"string"}]}}},` +
		`{"name":"note","type":["null","string"],"default":null},{"name":"region","type":"string","default":"eu"},` +
		`{"name":"labels","type":{"type":"map","values":"string"}},{"name":"total","type":"shop.Line"}]}`
}

type placedLine struct {
	Sku string `avro:"sku" json:"sku"`
}

func (placedLine) AvroFullSchema() string {
	return `{"type":"record","name":"shop.Line","fields":[{"name":"sku","type":"string"}]}`
}

const placedBody = `{"orderId":"o-1","cents":250,"lines":[{"sku":"a"}],"note":null,"labels":{},"total":{"sku":"t"}}`

func TestJSONNullAndEmptyObjectAreRefusedForRequiredFields(t *testing.T) {
	for body, want := range map[string]string{
		`null`:             "the message is null where a acemq.placed belongs",
		`{}`:               `requires field "orderId"`,
		` { } `:            `requires field "orderId"`,
		`{"orderId":null}`: `requires field "orderId"`,
		strings.Replace(placedBody, `"cents":250,`, ``, 1):                     `requires field "cents"`,
		strings.Replace(placedBody, `"lines":[{"sku":"a"}],`, ``, 1):           `requires field "lines"`,
		strings.Replace(placedBody, `[{"sku":"a"}]`, `[{"sku":"a"},{}]`, 1):    `acemq.placedLine requires field "sku"`,
		strings.Replace(placedBody, `"cents":250`, `"cents":250,"cents":3`, 1): `field "cents" of acemq.placed is given twice`,
	} {
		var p placed
		err := JSONCodec{}.Decode([]byte(body), &p)
		if !IsFatal(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%s) = %v, want a fatal error containing %q", body, err, want)
		}
	}
}

func TestJSONOptionalAndDefaultedFieldsMayBeLeftOut(t *testing.T) {
	for _, body := range []string{
		placedBody,
		strings.Replace(placedBody, `"note":null,`, ``, 1),
		`{"ORDERID":"o-1","cents":250,"lines":null,"labels":null,"total":{"sku":"t"}}`,
		`{"orderId":"o-1","cents":250,"lines":[],"labels":{"a":"b"},"total":{"sku":"t"},"unknown":{"x":[1,{}]}}`,
	} {
		var p placed
		if err := (JSONCodec{}).Decode([]byte(body), &p); err != nil {
			t.Errorf("Decode(%s) = %v", body, err)
		}
	}
	var plain jsonOrder // no contract: encoding/json's own leniency stands
	if err := (JSONCodec{}).Decode([]byte(`{}`), &plain); err != nil {
		t.Fatal(err)
	}
}

func TestJSONMalformedBodyKeepsEncodingJSONsError(t *testing.T) {
	var p placed
	err := JSONCodec{}.Decode([]byte(`{"orderId":"o-1",`), &p)
	var se *json.SyntaxError
	if !IsFatal(err) || !errors.As(err, &se) {
		t.Fatalf("error %v, want a fatal *json.SyntaxError", err)
	}
}

func TestJSONNestingAndWidthBombsAreRefusedBeforeDecoding(t *testing.T) {
	for body, limit := range map[string]string{
		strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000):                   decodelimit.Depth,
		`{"orderId":` + strings.Repeat(`{"a":`, 101) + "1" + strings.Repeat("}", 102): decodelimit.Depth,
		"[" + strings.Repeat("0,", 1_000_001) + "0]":                                  decodelimit.Elements,
	} {
		start := time.Now()
		var v any
		err := JSONCodec{}.Decode([]byte(body), &v)
		var le *LimitError
		if !IsFatal(err) || !errors.As(err, &le) || le.Limit != limit || le.Format != "json" {
			t.Errorf("%d bytes: %v, want a fatal json %s limit error", len(body), err, limit)
		}
		if took := time.Since(start); took > 10*time.Second { // a guard against super-linear work (such bombs took minutes), not a benchmark: room for -race on a busy machine
			t.Errorf("refusing %d bytes took %v", len(body), took)
		}
	}
	var v any
	if err := (JSONCodec{Limits: DecodeLimits{MaxBody: 3}}).Decode([]byte(`[1,2]`), &v); !errors.Is(err, ErrDecodeLimit) {
		t.Fatalf("MaxBody 3: %v", err)
	}
}

func BenchmarkJSONDecodeRecordWithRequiredFields(b *testing.B) {
	body := []byte(placedBody)
	b.Run("codec=json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p placed
			if err := (JSONCodec{}).Decode(body, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("codec=encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p placed
			if err := json.Unmarshal(body, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
