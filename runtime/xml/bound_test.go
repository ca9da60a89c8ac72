package xml

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/codecvectors"
	"github.com/acemq/acemq-gen/runtime/internal/membound"
)

func TestXMLUnknownElementFloodIsBounded(t *testing.T) {
	// 15 MB of unknown empty elements: refused by the byte scan, before the
	// parser builds a tree some 40 times the body's size.
	body := []byte("<order>" + strings.Repeat("<x/>", 15<<20/4) + "</order>")
	var err error
	start := time.Now()
	n := membound.Allocated(func() {
		var o order
		err = Codec{}.Decode(body, &o)
	})
	if !acemq.IsFatal(err) || !errors.Is(err, acemq.ErrDecodeLimit) || err.Error() != "acemq: xml: more than 100000 elements" {
		t.Fatalf("error %v, want the fatal elements limit error", err)
	}
	if took := time.Since(start); took > 10*time.Second { // a guard against super-linear work (such bombs took minutes), not a benchmark: room for -race on a busy machine
		t.Errorf("refusing it took %v", took)
	}
	if n > 1<<20 {
		t.Errorf("refusing it allocated %d bytes", n)
	}
}

func TestXMLAttributeFloodIsBounded(t *testing.T) {
	body := []byte("<order " + strings.Repeat(`a="1" `, 110_000) + "/>")
	var o order
	if err := (Codec{}).Decode(body, &o); !errors.Is(err, acemq.ErrDecodeLimit) {
		t.Fatalf("error %v, want the elements limit error", err)
	}
}

func TestXMLMarkupCountIgnoresEndTagsAndQuotedText(t *testing.T) {
	for body, want := range map[string]int{
		"<a><b/></a>": 2, `<a x="<y=1>" z='2'>t=1</a>`: 3, "<?xml version=\"1.0\"?><a/>": 3,
	} {
		if got := countMarkup([]byte(body), -1); got != want {
			t.Errorf("countMarkup(%q) = %d, want %d", body, got, want)
		}
	}
}

func TestXMLLimitsAreConfigurable(t *testing.T) {
	body := []byte("<order><orderId>A-1</orderId></order>")
	for _, c := range []Codec{
		{Limits: acemq.DecodeLimits{MaxDepth: 1}}, {Limits: acemq.DecodeLimits{MaxElements: 1}}, {Limits: acemq.DecodeLimits{MaxBody: 10}},
	} {
		var o order
		if err := c.Decode(body, &o); !errors.Is(err, acemq.ErrDecodeLimit) {
			t.Errorf("limits %+v: error %v, want a limit error", c.Limits, err)
		}
	}
	var o order
	if err := (Codec{}).Decode(body, &o); err != nil || o.OrderID != "A-1" {
		t.Fatalf("default limits: %v, %+v", err, o)
	}
}

func TestXMLTextForRecordListIsRefused(t *testing.T) {
	for _, body := range []string{
		"<shipment><id>S-1</id><parcels>oops</parcels></shipment>",
		"<shipment><id>S-1</id><parcels><parcels>oops</parcels></parcels></shipment>",
		"<shipment>oops</shipment>",
	} {
		var s shipment
		err := Codec{}.Decode([]byte(body), &s)
		if !acemq.IsFatal(err) || !strings.Contains(err.Error(), "holds text where a") {
			t.Errorf("Decode(%q) gave %v, %+v; want a fatal error that text stands where a record belongs", body, err, s)
		}
	}
}

func TestXMLRepeatedScalarIsRefused(t *testing.T) {
	for _, body := range []string{
		"<order><orderId>a</orderId><orderId>b</orderId></order>",
		"<shipment><id>S-1</id><id>S-2</id></shipment>",
	} {
		var s shipment
		var o order
		err := Codec{}.Decode([]byte(body), &o)
		if strings.HasPrefix(body, "<shipment") {
			err = Codec{}.Decode([]byte(body), &s)
		}
		if !acemq.IsFatal(err) || !strings.Contains(err.Error(), "appears 2 times where it holds one value") {
			t.Errorf("Decode(%q) gave %v; want a fatal error that the element is repeated", body, err)
		}
	}
	var m map[string]string
	if err := (Codec{}).Decode([]byte("<m><k>a</k><k>b</k></m>"), &m); !acemq.IsFatal(err) {
		t.Errorf("a repeated map entry gave %v, %v; want a fatal error", err, m)
	}
}

// booked is shaped as a generated record: its schema says which fields are
// required.
type booked struct {
	ID   string  `json:"id" xml:"id"`
	Seat int     `json:"seat" xml:"seat"`
	Note *string `json:"note" xml:"note"`
}

func (booked) AvroFullSchema() string {
	return `{"type":"record","name":"Booked","fields":[{"name":"id","type":"string"},{"name":"seat","type":"int"},` +
		`{"name":"note","type":["null","string"],"default":null}]}`
}

func TestXMLMissingRequiredFieldIsRefused(t *testing.T) {
	codecvectors.ExpectRefused[booked](t, Codec{}, map[string]string{
		"<booked/>":                            `requires field "id"`,
		"<booked><id>b-1</id></booked>":        `requires field "seat"`,
		"<booked><id>b-1</id><seat/></booked>": `requires field "seat"`,
	})
	var b booked
	if err := (Codec{}).Decode([]byte("<booked><id>b-1</id><seat>4</seat></booked>"), &b); err != nil || b.Seat != 4 {
		t.Fatalf("a whole record: %v, %+v", err, b)
	}
}
