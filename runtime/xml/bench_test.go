package xml

import "testing"

func BenchmarkEncodeOrder(b *testing.B) {
	o := order{OrderID: "A-1", Customer: "acme", TotalCents: 4250, Currency: "GBP", Paid: true, Lines: []string{"widget", "gasket"}}
	for b.Loop() {
		if _, err := (Codec{}).Encode(o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeJacksonOrder(b *testing.B) {
	body := []byte("<Order><orderId>A-1</orderId><customer>acme</customer><totalCents>4250</totalCents><currency>GBP</currency><paid>true</paid><lines><lines>widget</lines><lines>gasket</lines></lines></Order>")
	for b.Loop() {
		var o order
		if err := (Codec{}).Decode(body, &o); err != nil {
			b.Fatal(err)
		}
	}
}
