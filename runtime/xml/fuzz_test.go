package xml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// FuzzDecode feeds arbitrary bodies to the decoder: it must never panic and
// every failure must be fatal.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		"<order><orderId>A-1</orderId><lines>a</lines><lines>b</lines></order>",
		"<Order><lines><lines>a</lines></lines><totalCents>1</totalCents></Order>",
		"<a>", "<a></b>", "<a/><b/>", "<?xml version=\"1.0\"?><!-- c --><a x=\"1\">&amp;&#x41;</a>",
		"<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>", "<a><![CDATA[<b>]]></a>", "<p:a xmlns:p=\"u\"><p:b/></p:a>",
		"<r><lines/><paid>1</paid><totalCents> 7 </totalCents></r>",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var o order
		if err := (Codec{}).Decode(body, &o); err != nil && !acemq.IsFatal(err) {
			t.Fatalf("non-fatal error %v", err)
		}
		var m map[string]any
		if err := (Codec{}).Decode(body, &m); err != nil && !acemq.IsFatal(err) {
			t.Fatalf("non-fatal error %v", err)
		}
		var s []shipment
		if err := (Codec{}).Decode(body, &s); err != nil && !acemq.IsFatal(err) {
			t.Fatalf("non-fatal error %v", err)
		}
	})
}
