package toml

import (
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/codecbound"
	"github.com/acemq/acemq-gen/runtime/internal/codecvectors"
	"github.com/acemq/acemq-gen/runtime/internal/decodelimit"
)

// refused decodes body into a map and fails t unless the decode is a fatal
// LimitError naming limit, allocating under maxAlloc in under a second.
func refused(t *testing.T, c Codec, body []byte, limit string, maxAlloc uint64) {
	t.Helper()
	codecbound.Refused(t, body, limit, maxAlloc, func() error {
		var m map[string]any
		return c.Decode(body, &m)
	})
}

func TestTOMLNestedInlineTablesAreLinear(t *testing.T) {
	const depth = 20_000
	for name, body := range map[string]string{
		"inline tables": "a = " + strings.Repeat("{b = ", depth) + "1" + strings.Repeat("}", depth),
		"arrays":        "a = " + strings.Repeat("[", depth) + strings.Repeat("]", depth),
		"dotted keys":   strings.Repeat("k.", depth) + "v = 1\n",
		"table header":  "[" + strings.Repeat("k.", depth) + "v]\nx = 1\n",
		"quoted keys":   strings.Repeat(`"k".`, depth) + "v = 1\n",
	} {
		t.Run(name, func(t *testing.T) {
			refused(t, Codec{}, []byte(body), decodelimit.Depth, 1<<20)
		})
	}
}

func TestTOMLDepthUnderTheLimitDecodes(t *testing.T) {
	body := "a = " + strings.Repeat("{b = ", 50) + "1" + strings.Repeat("}", 50) + "\n" + strings.Repeat("k.", 50) + "v = \"x.y.z\" # a.b.c\n"
	var m map[string]any
	if err := (Codec{}).Decode([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
}

func TestTOMLStringsAndCommentsDoNotNest(t *testing.T) {
	brackets := strings.Repeat("[{", 200)
	body := "a = \"" + brackets + "\"\nb = '" + brackets + "'\nc = \"\"\"\n" + brackets + "\n\"\"\"\n# " + brackets + "\nd = '''" + brackets + "'''\n"
	var m map[string]any
	if err := (Codec{}).Decode([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
}

func TestTOMLWidthBombIsRefusedBeforeParsing(t *testing.T) {
	body := []byte("a = [" + strings.Repeat("1,", 1_100_000) + "1]")
	refused(t, Codec{}, body, decodelimit.Elements, 1<<20)
	body = []byte(strings.Repeat("k = 1\n", 1_100_000))
	refused(t, Codec{}, body, decodelimit.Elements, 1<<20)
}

func TestTOMLLimitsAreConfigurable(t *testing.T) {
	refused(t, Codec{Limits: acemq.DecodeLimits{MaxDepth: 2}}, []byte("a.b.c = 1"), decodelimit.Depth, 1<<20)
	refused(t, Codec{Limits: acemq.DecodeLimits{MaxBody: 4}}, []byte("a = 1"), decodelimit.Body, 1<<20)
}

// booked is shaped as a generated record: its schema says which fields are
// required.
type booked struct {
	ID   string  `json:"id"`
	Seat int     `json:"seat"`
	Note *string `json:"note"`
}

func (booked) AvroFullSchema() string {
	return `{"type":"record","name":"Booked","fields":[{"name":"id","type":"string"},{"name":"seat","type":"int"},` +
		`{"name":"note","type":["null","string"],"default":null}]}`
}

func TestTOMLMissingRequiredFieldIsRefused(t *testing.T) {
	codecvectors.ExpectRefused[booked](t, Codec{}, map[string]string{"": `requires field "id"`, "id = \"b-1\"\n": `requires field "seat"`})
	var b booked
	if err := (Codec{}).Decode([]byte("id = \"b-1\"\nseat = 4\n"), &b); err != nil || b.Seat != 4 {
		t.Fatalf("a whole record: %v, %+v", err, b)
	}
}
