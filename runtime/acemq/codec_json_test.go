package acemq

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type jsonOrder struct {
	OrderID    string `json:"orderId"`
	TotalCents int64  `json:"totalCents"`
}

func TestJSONCodecRoundTripsWithTagNamesOnTheWire(t *testing.T) {
	c := JSONCodec{}
	body, err := c.Encode(jsonOrder{OrderID: "o-1", TotalCents: 250})
	if err != nil || string(body) != `{"orderId":"o-1","totalCents":250}` {
		t.Fatalf("Encode = %s, %v", body, err)
	}
	var back jsonOrder
	if err := c.Decode(body, &back); err != nil || back != (jsonOrder{"o-1", 250}) {
		t.Errorf("Decode = %+v, %v", back, err)
	}
	if c.ContentType() != "application/json" {
		t.Errorf("ContentType = %q", c.ContentType())
	}
}

func TestJSONCodecMalformedBodyIsFatalWithTheSeedMessage(t *testing.T) {
	var dst jsonOrder
	err := JSONCodec{}.Decode([]byte(`{"orderId":`), &dst)
	if !IsFatal(err) || !strings.HasPrefix(err.Error(), "acemq: this message is not JSON that reads as *acemq.jsonOrder: ") {
		t.Fatalf("err = %v, want the fatal seed message", err)
	}
	var syntax *json.SyntaxError
	if !errors.As(err, &syntax) {
		t.Errorf("the json error is not wrapped: %v", err)
	}
}

func TestJSONCodecCanDecodeTable(t *testing.T) {
	cases := map[string]bool{
		"": true, "application/json": true, "APPLICATION/JSON; charset=utf-8": true, "text/json": true,
		"application/vnd.acme+json": true, "application/x-protobuf": false, "text/plain": false,
		"application/yaml": false, "application/vnd.acemq.avro": false,
	}
	for ct, want := range cases {
		if got := (JSONCodec{}).CanDecode(ct); got != want {
			t.Errorf("CanDecode(%q) = %v, want %v", ct, got, want)
		}
	}
}
