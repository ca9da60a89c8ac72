package avro

import "testing"

func BenchmarkRegisteredEncode(b *testing.B) {
	c := must[*Codec](b)(Registered(NewMemoryRegistry(), "orders", orderV2))
	v := orderV2Go{OrderID: "o-1", PlacedAt: placed, Visibility: "x"}
	for b.Loop() {
		if _, err := c.Encode(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRegisteredDecodeResolved(b *testing.B) {
	reg := NewMemoryRegistry()
	body := must[[]byte](b)(must[*Codec](b)(Registered(reg, "orders", orderV1)).Encode(orderV1Go{OrderID: "o-1", PlacedAt: placed}))
	c := must[*Codec](b)(Registered(reg, "orders", orderV2, ReaderSchema(orderV2)))
	for b.Loop() {
		var out orderV2Go
		if err := c.Decode(body, &out); err != nil {
			b.Fatal(err)
		}
	}
}
