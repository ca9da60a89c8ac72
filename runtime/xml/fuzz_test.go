package xml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/codecbound"
	"github.com/acemq/acemq-gen/runtime/internal/membound"
)

// allocPerByte bounds what decoding may allocate per body byte (beyond
// membound.Slack): encoding/xml's tokens, the element tree and its JSON form.
const allocPerByte = 512

// FuzzDecode feeds arbitrary bodies to the decoder: it must never panic,
// every failure must be fatal, and what it allocates must stay linear in the
// body's size.
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
		membound.Check(t, len(body), allocPerByte, func() { decodeAll(t, body) })
	})
}

// decodeAll decodes body as each kind of destination: every failure must be
// fatal.
func decodeAll(t *testing.T, body []byte) {
	codecbound.FatalOnly(t, Codec{}, body, new(order), new(map[string]any), new([]shipment))
}
