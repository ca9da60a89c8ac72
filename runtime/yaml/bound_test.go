package yaml

import (
	"errors"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/codecbound"
	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
)

// refusedWithin decodes body into a fresh T and fails t unless the decode is
// a fatal LimitError naming limit, allocating under maxAlloc in under a
// second.
func refusedWithin[T any](t *testing.T, c Codec, body string, limit string, maxAlloc uint64) {
	t.Helper()
	b := []byte(body)
	codecbound.Refused(t, b, limit, maxAlloc, func() error {
		var dst T
		return c.Decode(b, &dst)
	}, acemq.ErrDecodeLimit)
}

func TestYAMLNestingBombIsParkedNotOOM(t *testing.T) {
	const depth = 100_000
	bombs := map[string]string{
		"flow sequences": strings.Repeat("[", depth) + strings.Repeat("]", depth),
		"flow mappings":  strings.Repeat("{a: ", depth) + "1" + strings.Repeat("}", depth),
		"block entries":  strings.Repeat("- ", depth) + "x\n",
		"under a key":    "orderId: " + strings.Repeat("[", depth) + strings.Repeat("]", depth),
	}
	for name, body := range bombs {
		t.Run(name, func(t *testing.T) {
			refusedWithin[map[string]any](t, Codec{}, body, decodelimit.Depth, 8<<20)
			refusedWithin[order](t, Codec{}, body, decodelimit.Depth, 8<<20)
		})
	}
	var o order
	err := Codec{}.Decode([]byte(bombs["flow sequences"]), &o)
	if want := "acemq: yaml: nesting deeper than 100"; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}

func TestYAMLBlockIndentationBombIsRefused(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	refusedWithin[map[string]any](t, Codec{}, b.String(), decodelimit.Depth, 8<<20)
}

func TestYAMLAliasExpansionBombIsRefused(t *testing.T) {
	// Billion laughs: nine levels of ten aliases each expand to 10^9 values.
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		prev := "*a" + string(rune('0'+i-1))
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" + strings.Repeat(prev+", ", 9) + prev + "]\n")
	}
	refusedWithin[map[string]any](t, Codec{}, b.String(), decodelimit.Elements, 8<<20)
}

func TestYAMLWidthBombIsRefusedBeforeParsing(t *testing.T) {
	body := "[" + strings.Repeat("1,", 1_500_000) + "1]"
	refusedWithin[[]int](t, Codec{}, body, decodelimit.Elements, 1<<20)
}

func TestYAMLLimitsAreConfigurable(t *testing.T) {
	body := "a: [[[[1]]]]"
	var m map[string]any
	if err := (Codec{}).Decode([]byte(body), &m); err != nil {
		t.Fatalf("depth 5 under the default limits: %v", err)
	}
	refusedWithin[map[string]any](t, Codec{Limits: acemq.DecodeLimits{MaxDepth: 3}}, body, decodelimit.Depth, 1<<20)
	refusedWithin[map[string]any](t, Codec{Limits: acemq.DecodeLimits{MaxBody: 5}}, body, decodelimit.Body, 1<<20)
	refusedWithin[map[string]any](t, Codec{Limits: acemq.DecodeLimits{MaxElements: 3}}, "[1, 2, 3, 4, 5]", decodelimit.Elements, 1<<20)
}

func TestYAMLSecondDocumentIsRefused(t *testing.T) {
	for _, body := range []string{
		"orderId: A-1\n---\norderId: A-2\n",
		"---\norderId: A-1\n...\n---\norderId: A-2\n",
	} {
		var o order
		err := Codec{}.Decode([]byte(body), &o)
		if !acemq.IsFatal(err) || !errors.Is(err, errDocuments) {
			t.Fatalf("decoding %q gave %v (%+v), want the fatal error that it holds more than one document", body, err, o)
		}
	}
	for _, body := range []string{"---\norderId: A-1\n", "orderId: A-1\n...\n", "---\norderId: A-1\n---\n"} {
		var o order
		if err := (Codec{}).Decode([]byte(body), &o); err != nil || o.OrderID != "A-1" {
			t.Fatalf("decoding %q gave %v, %+v; want one document", body, err, o)
		}
	}
}

func TestYAMLDuplicateKeyIsRefused(t *testing.T) {
	var o order
	if err := (Codec{}).Decode([]byte("orderId: A-1\norderId: A-2\n"), &o); !acemq.IsFatal(err) {
		t.Fatalf("a key written twice gave %v, %+v; want a fatal error", err, o)
	}
}

func TestYAMLErrorDoesNotQuoteTheBody(t *testing.T) {
	body := []byte("a: b: " + strings.Repeat("x", 100_000) + "\n")
	var m map[string]any
	err := Codec{}.Decode(body, &m)
	if !acemq.IsFatal(err) || len(err.Error()) > 1024 {
		t.Fatalf("error of %d bytes (%.200s…), want a fatal error under 1 KiB", len(err.Error()), err)
	}
}

// booked is shaped as a generated record: its schema says which fields are
// required.
type booked struct {
	ID    string   `json:"id"`
	Seat  int      `json:"seat"`
	Note  *string  `json:"note"`
	Tags  []string `json:"tags"`
	Extra *string  `json:"extra"`
}

func (booked) AvroFullSchema() string {
	return `{"type":"record","name":"Booked","fields":[{"name":"id","type":"string"},{"name":"seat","type":"int"},` +
		`{"name":"note","type":["null","string"],"default":null},{"name":"tags","type":{"type":"array","items":"string"}},` +
		`{"name":"extra","type":"string","default":"x"}]}`
}

func TestYAMLMissingRequiredFieldIsRefused(t *testing.T) {
	for body, want := range map[string]string{
		"":                                "", // no document: dst is left as it is
		"{}":                              `requires field "id"`,
		"null":                            "null was used where mapping is expected",
		"id: b-1\ntags: []\n":             `requires field "seat"`,
		"id: b-1\nseat: null\ntags: []\n": `requires field "seat"`,
	} {
		var b booked
		err := Codec{}.Decode([]byte(body), &b)
		if want == "" {
			if err != nil {
				t.Errorf("Decode(%q) = %v", body, err)
			}
			continue
		}
		if !acemq.IsFatal(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%q) = %v, want a fatal error containing %q", body, err, want)
		}
	}
	var b booked
	if err := (Codec{}).Decode([]byte("id: b-1\nseat: 4\ntags: null\n"), &b); err != nil || b.Seat != 4 {
		t.Fatalf("a whole record: %v, %+v", err, b)
	}
}
