package goldenjson_test

import (
	"reflect"
	"testing"

	"github.com/acemq/acemq-gen/generator/internal/goldenjson/optional_types/orders"
	"github.com/acemq/acemq-gen/generator/internal/goldenjson/records_defaults/billing"
)

// decodeBoth reads body with the generated decoder, checks encoding/json
// reads the same, and returns the value.
func decodeBoth(t *testing.T, body string) billing.Line {
	t.Helper()
	checkBody[billing.Line](t, []byte(body))
	var got billing.Line
	if err := got.UnmarshalAcemqJSON([]byte(body)); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return got
}

func TestGeneratedDecoderMatchesKeysInAnyCaseAsEncodingJSONDoes(t *testing.T) {
	got := decodeBoth(t, `{"SKU":"b-1","Price":{"CENTS":250,"currency":"EUR"}}`)
	if got.Sku != "b-1" || got.Price.Cents != 250 || got.Price.Currency != "EUR" {
		t.Fatalf("keys in another case read as %+v", got)
	}
}

func TestGeneratedDecoderSkipsUnknownKeysAsEncodingJSONDoes(t *testing.T) {
	got := decodeBoth(t, `{"sku":"b-1","discount":{"deep":[1,2,{"x":null}]},"price":{"cents":7,"extra":"y"}}`)
	if got.Sku != "b-1" || got.Price.Cents != 7 {
		t.Fatalf("a body with unknown keys read as %+v", got)
	}
}

func TestGeneratedDecoderTakesTheLastOfARepeatedKeyAsEncodingJSONDoes(t *testing.T) {
	got := decodeBoth(t, `{"sku":"first","price":{"cents":1,"rate":0.5},"sku":"last","price":{"cents":2}}`)
	if got.Sku != "last" || got.Price.Cents != 2 || got.Price.Rate != 0.5 {
		t.Fatalf("repeated keys read as %+v, want the last sku and price merged into the first", got)
	}
	body := `{"customerId":"c","labels":{"a":"1"},"previousIds":["x","y"],"labels":{"b":"2"},"previousIds":["z"]}`
	checkBody[orders.CustomerMoved](t, []byte(body))
	var moved orders.CustomerMoved
	if err := moved.UnmarshalAcemqJSON([]byte(body)); err != nil || len(moved.Labels) != 2 || len(moved.PreviousIds) != 1 {
		t.Fatalf("a repeated map and array read as %+v, %v; want the maps merged and the last array", moved, err)
	}
}

func TestGeneratedDecoderLeavesANonPointerFieldAloneForNullAsEncodingJSONDoes(t *testing.T) {
	got := decodeBoth(t, `{"sku":null,"price":{"cents":null,"exact":true}}`)
	if got.Sku != "" || got.Price.Cents != 0 || !got.Price.Exact {
		t.Fatalf("nulls read as %+v", got)
	}
	var moved orders.CustomerMoved
	body := `{"customerId":"c","from":null,"floor":null,"movedAt":null,"previousIds":null,"labels":null,"tags":null,"to":null}`
	checkBody[orders.CustomerMoved](t, []byte(body))
	if err := moved.UnmarshalAcemqJSON([]byte(body)); err != nil || !reflect.DeepEqual(moved, orders.CustomerMoved{CustomerID: "c"}) {
		t.Fatalf("nulls read as %+v, %v", moved, err)
	}
}

func TestGeneratedDecoderIntoAFilledValueKeepsWhatTheBodyLeavesOutAsEncodingJSONDoes(t *testing.T) {
	got := billing.Line{Sku: "kept", Price: billing.Money{Currency: "EUR", Cents: 5}}
	if err := got.UnmarshalAcemqJSON([]byte(`{"price":{"cents":9}}`)); err != nil {
		t.Fatal(err)
	}
	if want := (billing.Line{Sku: "kept", Price: billing.Money{Currency: "EUR", Cents: 9}}); got != want {
		t.Fatalf("decoding into a filled value gave %+v, want %+v", got, want)
	}
}
