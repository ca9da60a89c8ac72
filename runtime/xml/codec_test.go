package xml

import (
	"encoding/base64"
	"encoding/json"
	stdxml "encoding/xml"
	"errors"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
	"github.com/acemq/acemq-gen/runtime/internal/codecvectors"
)

func TestXMLClaimsTheFamilysContentTypes(t *testing.T) {
	if got := (Codec{}).ContentType(); got != "application/xml" {
		t.Fatalf("ContentType() = %q", got)
	}
	codecvectors.ExpectClaims(t, Codec{}, map[string]bool{
		"application/xml": true, "text/xml": true, "application/vnd.acme.order+xml": true,
		"image/svg+xml": true, "Application/XML; charset=utf-8": true, " TEXT/XML ": true,
		"": false, "application/json": false, "application/yaml": false, "text/plain": false,
		"application/xmlish": false, "application/x-xml-thing": false,
	})
}

func TestNotXMLIsFatal(t *testing.T) {
	for _, body := range []string{"", "   ", "orderId: A-1", "{\"orderId\":\"A-1\"}", "<order>", "<order></orde>",
		"<order/><order/>", "text<order/>", "<order/>text", "<order><orderId>A-1</orderId>", "<a b=></a>"} {
		var o order
		err := Codec{}.Decode([]byte(body), &o)
		if !acemq.IsFatal(err) {
			t.Errorf("Decode(%q) error %v is not fatal", body, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), "acemq: this message is not XML that reads as *xml.order: ") {
			t.Errorf("Decode(%q) error %q", body, err)
		}
	}
}

func TestXMLThatDoesNotReadAsTheTargetIsFatal(t *testing.T) {
	for _, body := range []string{
		"<order><totalCents>many</totalCents></order>",
		"<order><totalCents>42.5</totalCents></order>",
		"<order><totalCents>99999999999999999999</totalCents></order>",
		"<order><paid>perhaps</paid></order>",
	} {
		var o order
		err := Codec{}.Decode([]byte(body), &o)
		if !acemq.IsFatal(err) || !strings.HasPrefix(err.Error(), "acemq: this message is not XML that reads as *xml.order: ") {
			t.Errorf("Decode(%q) error %v, want a fatal one in the family's wording", body, err)
		}
	}
}

func TestDecodeNeedsAPointer(t *testing.T) {
	var o order
	if err := (Codec{}).Decode([]byte("<order/>"), o); !acemq.IsFatal(err) {
		t.Fatalf("Decode into a value: %v, want a fatal error", err)
	}
}

// tagged carries xml tags only, as hand-written encoding/xml types do.
type tagged struct {
	ID      string   `xml:"id"`
	Note    *string  `xml:"note"`
	Count   int      `xml:"count,omitempty"`
	Flag    bool     `xml:"flag"`
	Ratio   float64  `xml:"ratio"`
	Tags    []string `xml:"tag"`
	Skipped string   `xml:"-"`
	Inner   inner    `xml:"inner"`
}

type inner struct {
	Text string `xml:"text"`
}

func TestEncodeMatchesEncodingXMLForXMLTaggedTypes(t *testing.T) {
	note := "a <note> & \"quotes\" 'too'\nnext line\ttab"
	for _, v := range []tagged{
		{ID: "t-1", Note: &note, Count: 3, Flag: true, Ratio: 0.25, Tags: []string{"x", "", "z"}, Skipped: "no", Inner: inner{"in"}},
		{ID: "Ana Söderström"},
	} {
		got, err := Codec{}.Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := stdxml.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("encoded\n%s\nencoding/xml writes\n%s", got, want)
		}
		var back tagged
		if err := (Codec{}).Decode(got, &back); err != nil {
			t.Fatal(err)
		}
		v.Skipped = ""
		if !reflect.DeepEqual(back, v) {
			t.Fatalf("read back %+v, want %+v", back, v)
		}
	}
}

// named carries both tags, differing: the xml tag names the element.
type named struct {
	OrderID string `xml:"order-id" json:"orderId"`
	Total   int64  `json:"total"`
}

func TestAnXMLTagNamesTheElementOverTheJSONTag(t *testing.T) {
	b, err := Codec{}.Encode(named{OrderID: "A-1", Total: 5})
	if err != nil {
		t.Fatal(err)
	}
	if want := "<named><order-id>A-1</order-id><total>5</total></named>"; string(b) != want {
		t.Fatalf("encoded %s, want %s", b, want)
	}
	var back named
	if err := (Codec{}).Decode(b, &back); err != nil || back != (named{OrderID: "A-1", Total: 5}) {
		t.Fatalf("read back %+v, %v", back, err)
	}
}

type rooted struct {
	XMLName stdxml.Name `xml:"purchase" json:"-"`
	ID      string      `json:"id"`
}

func TestTheXMLNameFieldNamesTheRootElement(t *testing.T) {
	b, err := Codec{}.Encode(&rooted{ID: "p"})
	if err != nil || string(b) != "<purchase><id>p</id></purchase>" {
		t.Fatalf("encoded %s, %v", b, err)
	}
}

type shipment struct {
	ID      string    `json:"id"`
	At      time.Time `json:"at"`
	Note    *string   `json:"note,omitempty"`
	Parcels []parcel  `json:"parcels"`
	Big     int64     `json:"big"`
	Blob    []byte    `json:"blob"`
}

type parcel struct {
	Grams int      `json:"grams"`
	Codes []string `json:"codes,omitempty"`
}

func TestRoundTripKeepsNestedListsTimesBytesAndLargeIntegers(t *testing.T) {
	note := ""
	in := shipment{ID: "s-1", At: time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC), Note: &note,
		Parcels: []parcel{{Grams: 10, Codes: []string{"a", "b"}}, {Grams: 20}}, Big: 1<<62 + 1, Blob: []byte{0, 1, 0xff}}
	b := codecvectors.RoundTrip(t, Codec{}, in)
	want := "<shipment><id>s-1</id><at>2026-01-02T03:04:05.006Z</at><note></note>" +
		"<parcels><grams>10</grams><codes>a</codes><codes>b</codes></parcels><parcels><grams>20</grams></parcels>" +
		"<big>4611686018427387905</big><blob>AAH/</blob></shipment>"
	if string(b) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", b, want)
	}
}

func TestAWrappedListOfRecordsReadsAsTheRepeatedOne(t *testing.T) {
	for name, body := range map[string]string{
		"go, two":       "<shipment><parcels><grams>1</grams></parcels><parcels><grams>2</grams></parcels></shipment>",
		"jackson, two":  "<Shipment><parcels><parcels><grams>1</grams></parcels><parcels><grams>2</grams></parcels></parcels></Shipment>",
		"go, one":       "<shipment><parcels><grams>1</grams></parcels></shipment>",
		"jackson, one":  "<Shipment><parcels><parcels><grams>1</grams></parcels></parcels></Shipment>",
		"jackson, text": "<Shipment><parcels><parcels><grams>1</grams><codes><codes>x</codes></codes></parcels></parcels></Shipment>",
	} {
		var s shipment
		if err := (Codec{}).Decode([]byte(body), &s); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(s.Parcels) == 0 || s.Parcels[0].Grams != 1 || (strings.HasSuffix(name, "two") && (len(s.Parcels) != 2 || s.Parcels[1].Grams != 2)) {
			t.Fatalf("%s: parcels %+v", name, s.Parcels)
		}
		if name == "jackson, text" && !reflect.DeepEqual(s.Parcels[0].Codes, []string{"x"}) {
			t.Fatalf("%s: codes %+v", name, s.Parcels[0].Codes)
		}
	}
}

func TestAnEmptyWrapperIsAnEmptyList(t *testing.T) {
	var o order
	if err := (Codec{}).Decode([]byte("<Order><orderId>A</orderId><lines/></Order>"), &o); err != nil {
		t.Fatal(err)
	}
	if o.Lines == nil || len(o.Lines) != 0 {
		t.Fatalf("lines %#v, want an empty list", o.Lines)
	}
}

func TestDeclarationCommentsIndentationAndNamespacesAreRead(t *testing.T) {
	body := `<?xml version="1.0" encoding="UTF-8"?>
<!-- written by hand -->
<ns:Order xmlns:ns="urn:acme" version="2">
  <ns:orderId>A-1</ns:orderId>
  <totalCents> 4250 </totalCents>
  <paid>1</paid>
  <customer><![CDATA[Smith & Sons]]></customer>
  <lines>
    <lines>widget</lines>
  </lines>
  <unknown><deep/></unknown>
</ns:Order>
`
	var o order
	if err := (Codec{}).Decode([]byte(body), &o); err != nil {
		t.Fatal(err)
	}
	want := order{OrderID: "A-1", TotalCents: 4250, Paid: true, Customer: "Smith & Sons", Lines: []string{"widget"}}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("decoded %+v, want %+v", o, want)
	}
}

func TestEmptyNumbersAndBooleansAreTheirZeroValues(t *testing.T) {
	var o order
	if err := (Codec{}).Decode([]byte("<order><totalCents></totalCents><paid/></order>"), &o); err != nil {
		t.Fatal(err)
	}
	if o.TotalCents != 0 || o.Paid {
		t.Fatalf("decoded %+v", o)
	}
}

func TestEncodeRefusesWhatXMLCannotCarryAsFatal(t *testing.T) {
	var nilOrder *order
	for _, c := range []struct {
		payload any
		why     error
	}{
		{nil, errNil},
		{nilOrder, errNil},
		{map[string]any{"a": 1}, errNoRoot},
		{[]order{{}}, errNoRoot},
		{struct{ A int }{1}, errNoRoot},
		{grid{Rows: [][]int{{1}, {2}}}, errListOfLists},
	} {
		_, err := Codec{}.Encode(c.payload)
		if !acemq.IsFatal(err) || !errors.Is(err, c.why) {
			t.Errorf("Encode(%#v) error %v, want a fatal %v", c.payload, err, c.why)
		}
	}
	_, err := Codec{}.Encode(keyed{M: map[string]int{"not a name": 1}})
	if !acemq.IsFatal(err) || !strings.Contains(err.Error(), `"not a name" is not an XML element name`) {
		t.Errorf("a map key that is no element name: %v", err)
	}
}

type grid struct {
	Rows [][]int `json:"rows"`
}

type keyed struct {
	M map[string]int `json:"m"`
}

// Lap is written the way the generator writes a record with JSON forms: a
// record-level MarshalJSON and UnmarshalJSON binding its fields to
// acemqimpl.JSONForm values.
type Lap struct {
	Took   time.Duration   `json:"took"`
	Fee    *big.Rat        `json:"fee"`
	Day    time.Time       `json:"day"`
	Splits []time.Duration `json:"splits"`
}

func (m Lap) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Took   acemqimpl.JSONValue[time.Duration]   `json:"took"`
		Fee    acemqimpl.JSONValue[*big.Rat]        `json:"fee"`
		Day    time.Time                            `json:"day"`
		Splits acemqimpl.JSONValue[[]time.Duration] `json:"splits"`
	}{
		Took:   acemqimpl.JSONMillisForm().Bind(&m.Took),
		Fee:    acemqimpl.JSONDecimalForm(6, 2).Bind(&m.Fee),
		Day:    m.Day,
		Splits: acemqimpl.JSONArray(acemqimpl.JSONMillisForm()).Bind(&m.Splits),
	})
}

func (m *Lap) UnmarshalJSON(data []byte) error {
	type plain Lap
	return json.Unmarshal(data, &struct {
		*plain
		Took   acemqimpl.JSONValue[time.Duration]   `json:"took"`
		Fee    acemqimpl.JSONValue[*big.Rat]        `json:"fee"`
		Splits acemqimpl.JSONValue[[]time.Duration] `json:"splits"`
	}{
		plain:  (*plain)(m),
		Took:   acemqimpl.JSONMillisForm().Bind(&m.Took),
		Fee:    acemqimpl.JSONDecimalForm(6, 2).Bind(&m.Fee),
		Splits: acemqimpl.JSONArray(acemqimpl.JSONMillisForm()).Bind(&m.Splits),
	})
}

func TestXMLCarriesTheJSONFormsOfDecimalsDatesAndDurations(t *testing.T) {
	in := Lap{Took: 1500 * time.Millisecond, Fee: big.NewRat(25, 2), Day: time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC), Splits: []time.Duration{time.Second, 2 * time.Second}}
	b, err := Codec{}.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	want := "<Lap><took>1500</took><fee>12.50</fee><day>2026-03-04T00:00:00Z</day><splits>1000</splits><splits>2000</splits></Lap>"
	if string(b) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", b, want)
	}
	var out Lap
	if err := (Codec{}).Decode(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Took != in.Took || out.Fee.Cmp(in.Fee) != 0 || !out.Day.Equal(in.Day) || !reflect.DeepEqual(out.Splits, in.Splits) {
		t.Fatalf("read back %+v, want %+v", out, in)
	}
	var bad Lap
	err = Codec{}.Decode([]byte("<Lap><fee>12.345</fee></Lap>"), &bad)
	if !acemq.IsFatal(err) || !strings.Contains(err.Error(), "does not fit decimal(6,2)") {
		t.Fatalf("a decimal of the wrong scale: %v", err)
	}
}

func TestDecodeIntoAMapGivesStringsListsAndMaps(t *testing.T) {
	var m map[string]any
	body := "<r><a>1</a><b><c>x</c></b><l>p</l><l>q</l><w><w>only</w></w><e/></r>"
	if err := (Codec{}).Decode([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": "1", "b": map[string]any{"c": "x"}, "l": []any{"p", "q"}, "w": []any{"only"}, "e": ""}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("decoded %#v, want %#v", m, want)
	}
}

func TestElementsNestedTooDeeplyAreFatal(t *testing.T) {
	body := strings.Repeat("<a>", acemq.DefaultMaxDepth+1) + strings.Repeat("</a>", acemq.DefaultMaxDepth+1)
	var m map[string]any
	err := Codec{}.Decode([]byte(body), &m)
	if !acemq.IsFatal(err) || !errors.Is(err, acemq.ErrDecodeLimit) || err.Error() != "acemq: xml: nesting deeper than 100" {
		t.Fatalf("error %v, want the fatal depth limit error", err)
	}
}

// digest is written the way the generator writes a fixed type: base64 text.
type digest [4]byte

func (v digest) MarshalText() ([]byte, error) {
	return []byte(base64.StdEncoding.EncodeToString(v[:])), nil
}

func (v *digest) UnmarshalText(text []byte) error {
	_, err := base64.StdEncoding.Decode(v[:], text)
	return err
}

type signed struct {
	Sum  digest   `json:"sum"`
	Sums []digest `json:"sums"`
}

func TestAFixedTypeIsOneBase64ElementNotAList(t *testing.T) {
	in := signed{Sum: digest{1, 2, 3, 4}, Sums: []digest{{5, 6, 7, 8}, {9}}}
	b, err := Codec{}.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := "<signed><sum>AQIDBA==</sum><sums>BQYHCA==</sums><sums>CQAAAA==</sums></signed>"; string(b) != want {
		t.Fatalf("encoded %s, want %s", b, want)
	}
	var out signed
	if err := (Codec{}).Decode(b, &out); err != nil || !reflect.DeepEqual(out, in) {
		t.Fatalf("read back %+v, %v", out, err)
	}
}
