package xml

import (
	"bytes"
	"encoding/json"
	stdxml "encoding/xml"
	"fmt"
	"reflect"
	"strconv"
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/codecvectors"
)

// vectorFiles are the family's vector files that hold XML bodies.
var vectorFiles = []string{"codec-samples.json", "codec-interop-fixtures.json", "xml-interop-samples.json"}

// order and OrderPlaced are the family's vector payload under the two type
// names the Go library's samples were written from: the root element is the
// Go type's name.
type (
	order       codecvectors.Order
	OrderPlaced codecvectors.Order
)

func xmlSamples(t *testing.T) []codecvectors.Sample {
	t.Helper()
	samples := codecvectors.Samples(t, "../..", "xml", vectorFiles...)
	if len(samples) != 8 {
		t.Fatalf("found %d XML samples in %v, want 8", len(samples), vectorFiles)
	}
	return samples
}

func sampleName(s codecvectors.Sample) string { return s.File + "/" + s.Name + "/" + s.Producer }

// TestXMLVectorsDecodeBothListShapes decodes every XML body Java and Go wrote
// in the family's vectors — Jackson's wrapped lists and Go's repeated
// siblings — into the struct generated types look like and into a map, and
// compares both with the value the sample carries.
func TestXMLVectorsDecodeBothListShapes(t *testing.T) {
	shapes := map[string]int{}
	for _, s := range xmlSamples(t) {
		t.Run(sampleName(s), func(t *testing.T) {
			want := expected(t, s.Expected)
			if !(Codec{}).CanDecode(s.ContentType) {
				t.Fatalf("CanDecode(%q) = false", s.ContentType)
			}
			var typed codecvectors.Order
			if err := (Codec{}).Decode(s.Body, &typed); err != nil {
				t.Fatal(err)
			}
			if got := stringified(t, typed); !reflect.DeepEqual(got, want) {
				t.Fatalf("decoded %v\nwant    %v", got, want)
			}
			var untyped map[string]any
			if err := (Codec{}).Decode(s.Body, &untyped); err != nil {
				t.Fatal(err)
			}
			if got := stringified(t, untyped); !reflect.DeepEqual(got, want) {
				t.Fatalf("decoded as a map %v\nwant             %v", got, want)
			}
		})
		shapes[listShape(s.Body)]++
	}
	if shapes["wrapped"] == 0 || shapes["repeated"] == 0 {
		t.Fatalf("list shapes seen %v; the vectors hold both", shapes)
	}
}

// TestXMLEncodesGoWrittenSamplesByteForByte encodes each Go-written sample's
// value, as the Go type its root element names, and compares the bytes.
func TestXMLEncodesGoWrittenSamplesByteForByte(t *testing.T) {
	seen := 0
	for _, s := range xmlSamples(t) {
		if s.Producer != "go" {
			continue
		}
		seen++
		t.Run(sampleName(s), func(t *testing.T) {
			o := orderOf(t, s.Expected)
			var payload any
			switch root := rootOf(t, s.Body); root {
			case "order":
				payload = order(o)
			case "OrderPlaced":
				payload = OrderPlaced(o)
			default:
				t.Fatalf("no test type for root element %q", root)
			}
			got, err := Codec{}.Encode(payload)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, s.Body) {
				t.Fatalf("encoded\n%s\nGo wrote\n%s", got, s.Body)
			}
		})
	}
	if seen != 4 {
		t.Fatalf("found %d Go-written XML samples, want 4", seen)
	}
}

// expected is a sample's expected value with every scalar as the text XML
// carries ("4250", "true"), without the document's "what" note.
func expected(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "what")
	return stringify(m).(map[string]any)
}

// stringified is v through JSON with every scalar as text.
func stringified(t *testing.T, v any) map[string]any {
	t.Helper()
	return stringify(codecvectors.Normalise(t, v)).(map[string]any)
}

func stringify(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = stringify(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = stringify(e)
		}
		return x
	}
	return fmt.Sprint(v)
}

// orderOf is a sample's expected value as the vectors' Go type; the
// interop fixtures spell totalCents as a string, the others as a number.
func orderOf(t *testing.T, raw json.RawMessage) codecvectors.Order {
	t.Helper()
	m := expected(t, raw)
	cents, err := strconv.ParseInt(m["totalCents"].(string), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	o := codecvectors.Order{OrderID: m["orderId"].(string), Customer: m["customer"].(string), TotalCents: cents, Currency: m["currency"].(string), Paid: m["paid"] == "true"}
	o.Lines, o.Items = stringList(m["lines"]), stringList(m["items"])
	return o
}

func stringList(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, s := range list {
		out = append(out, s.(string))
	}
	return out
}

// rootOf is the name of body's root element.
func rootOf(t *testing.T, body []byte) string {
	t.Helper()
	var root struct{ XMLName stdxml.Name }
	if err := stdxml.Unmarshal(body, &root); err != nil {
		t.Fatal(err)
	}
	return root.XMLName.Local
}

// listShape says which list shape body uses.
func listShape(body []byte) string {
	for _, name := range []string{"lines", "items"} {
		if bytes.Contains(body, []byte("<"+name+"><"+name+">")) {
			return "wrapped"
		}
	}
	return "repeated"
}
