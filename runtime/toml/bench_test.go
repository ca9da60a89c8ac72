package toml

import "testing"

func BenchmarkEncodeOrder(b *testing.B) {
	o := order{OrderID: "A-1", Customer: "acme", TotalCents: 4250, Currency: "GBP", Paid: true, Lines: []string{"widget", "gasket"}}
	for b.Loop() {
		if _, err := (Codec{}).Encode(o); err != nil {
			b.Fatal(err)
		}
	}
}
