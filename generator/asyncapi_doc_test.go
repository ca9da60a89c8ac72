package generator

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/goccy/go-yaml"
)

// asyncapiDocContract holds doc in the domain's, an event's and a field's doc.
const asyncapiDocContract = `acemq: 1
domain: shop
doc: %[1]s
events:
  OrderPlaced:
    doc: %[1]s
    fields:
      ref: {type: string, doc: %[1]s}
`

// asyncapiDocs are the three docs of asyncapiDocContract as an AsyncAPI
// document in format holds them, read back with a YAML or a JSON parser.
func asyncapiDocs(t *testing.T, doc, format string) []string {
	t.Helper()
	src := Source{Path: "shop.acemq.yaml", Data: fmt.Appendf(nil, asyncapiDocContract, yamlQuoted(doc))}
	res := AsyncAPI([]Source{src}, AsyncAPIFormat(format))
	if len(res.Diagnostics) > 0 || len(res.Files) != 1 {
		t.Fatalf("doc %q: %d files, diagnostics:\n%s", doc, len(res.Files), stderrOf(res.Diagnostics))
	}
	if i := strings.IndexFunc(string(res.Files[0].Data), func(r rune) bool { return r != '\n' && r != '\t' && !unicode.IsPrint(r) }); i >= 0 {
		t.Fatalf("doc %q: the %s document holds a raw %q, which YAML forbids or reads as a line break", doc, format, []rune(string(res.Files[0].Data[i:]))[0])
	}
	var back map[string]any
	var err error
	if format == "json" {
		err = json.Unmarshal(res.Files[0].Data, &back)
	} else {
		err = yaml.Unmarshal(res.Files[0].Data, &back)
	}
	if err != nil {
		t.Fatalf("doc %q: the %s document does not parse: %v\n%s", doc, format, err, res.Files[0].Data)
	}
	str := func(v any) string { s, _ := v.(string); return s }
	return []string{str(at(t, back, "info", "description")), str(at(t, back, "channels", "OrderPlaced", "description")),
		str(at(t, back, "components", "schemas", "shop.OrderPlaced", "properties", "ref", "description"))}
}

// TestAsyncAPIDocRoundTripsExactly writes docs YAML writers get wrong (a
// first line indented more than the next, common indentation, NEL, LS, PS,
// control characters, a tab-first line, CRLF) into a contract, and reads
// the AsyncAPI document back, YAML and JSON: each doc is there byte for byte
// as the contract holds it (trimmed of surrounding blanks, as every doc is),
// and the document holds no raw control, NEL, LS, PS or BOM character.
func TestAsyncAPIDocRoundTripsExactly(t *testing.T) {
	for _, doc := range []string{"x\n  indented second\nthird", "first\n\n    code block\n    more code", "a\u0085b\u2028c\u2029d",
		"nul\x00 bell\a esc\x1b", "x\n\tTab-first line", "crlf\r\nline", "yes", "- item: x # y", "\ufeff\u202e", "trailing\n\n\nbreaks inside"} {
		want := strings.TrimSpace(doc)
		for _, format := range []string{"yaml", "json"} {
			for i, got := range asyncapiDocs(t, doc, format) {
				if got != want {
					t.Errorf("%s doc %d: got %q, want %q", format, i, got, want)
				}
			}
		}
	}
}

// TestAsyncAPIServerErrorsNeverShowThePassword gives --server values whose
// URL holds a password and does not parse (an unencoded '/'), lacks a name,
// or was cut at an '=' of its password: the error shows none of it.
func TestAsyncAPIServerErrorsNeverShowThePassword(t *testing.T) {
	for _, opt := range []AsyncAPIOption{AsyncAPIServer("prod", "amqp://user:s3cr/et@host/"), AsyncAPIServer("prod", "amqp://user:s3cret@"),
		AsyncAPIServer("", "amqp://user:s3cret@host/"), AsyncAPIServer("amqp://user:s3cr", "et@host/")} {
		res := AsyncAPI(caseSources(t, "../testdata/golden/rpc"), opt)
		out := stderrOf(res.Diagnostics)
		if len(res.Files) > 0 || !strings.Contains(out, "server") || strings.Contains(out, "s3cr") {
			t.Errorf("%d files, diagnostics %q: want an error without the password", len(res.Files), out)
		}
	}
}
