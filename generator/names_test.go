package generator

import "testing"

func TestGoNameCapitalisesWordsAndSpellsInitialismsInCapitals(t *testing.T) {
	cases := map[string]string{
		"orderId": "OrderID", "sku": "Sku", "skus": "Skus", "x-tenant": "XTenant",
		"utf8Name": "UTF8Name", "apiKey": "APIKey", "HTTPServer": "HTTPServer", "url": "URL",
		"user_id": "UserID", "priceCents": "PriceCents", "orderIDs": "OrderIDs", "ids": "Ids",
		"x-bookstore-till": "XBookstoreTill", "jsonBlob": "JSONBlob", "a": "A", "_hidden": "Hidden",
	}
	for in, want := range cases {
		if got := GoName(in); got != want {
			t.Errorf("GoName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDefaultRoutingKeyAndQueueSpellTheNameInLowerCaseWords(t *testing.T) {
	cases := []struct{ name, dots, kebab, low string }{
		{"OrderPlaced", "order.placed", "order-placed", "orderPlaced"},
		{"ShipHTTPOrder", "ship.http.order", "ship-http-order", "shipHTTPOrder"},
		{"HTTPCall", "http.call", "http-call", "httpCall"},
		{"Refund2Order", "refund2.order", "refund2-order", "refund2Order"},
	}
	for _, c := range cases {
		if got := dotWords(c.name); got != c.dots {
			t.Errorf("dotWords(%q) = %q, want %q", c.name, got, c.dots)
		}
		if got := kebab(c.name); got != c.kebab {
			t.Errorf("kebab(%q) = %q, want %q", c.name, got, c.kebab)
		}
		if got := unexported(c.name); got != c.low {
			t.Errorf("unexported(%q) = %q, want %q", c.name, got, c.low)
		}
	}
}
