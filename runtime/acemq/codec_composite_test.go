package acemq

import (
	"strings"
	"testing"
)

func TestCompositeCodecEncodesWithTheFirst(t *testing.T) {
	c := NewCompositeCodec(JSONCodec{}, StringCodec{})
	body, err := c.Encode(map[string]int{"a": 1})
	if err != nil || string(body) != `{"a":1}` || c.ContentType() != "application/json" {
		t.Errorf("Encode = %s, %v; content type %q", body, err, c.ContentType())
	}
}

func TestCompositeCodecDecodesWithTheFirstThatClaims(t *testing.T) {
	c := NewCompositeCodec(JSONCodec{}, StringCodec{}, BytesCodec{})
	var s string
	if err := c.DecodeAs("text/plain", []byte("not json"), &s); err != nil || s != "not json" {
		t.Errorf("text: %q, %v", s, err)
	}
	if err := c.DecodeAs("application/json", []byte(`"quoted"`), &s); err != nil || s != "quoted" {
		t.Errorf("json: %q, %v", s, err)
	}
	if err := c.DecodeAs("image/png", []byte("png"), &s); err != nil || s != "png" {
		t.Errorf("bytes: %q, %v", s, err)
	}
}

func TestCompositeCodecWithNoClaimantNamesWhatItHolds(t *testing.T) {
	c := NewCompositeCodec(JSONCodec{}, StringCodec{})
	var s string
	err := c.DecodeAs("application/x-protobuf", nil, &s)
	want := `acemq: no codec in this CompositeCodec will read "application/x-protobuf"; it holds [application/json text/plain; charset=utf-8]`
	if !IsFatal(err) || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestCompositeCodecBareDecodeNeedsTheContentType(t *testing.T) {
	err := NewCompositeCodec(JSONCodec{}).Decode([]byte("{}"), new(any))
	if err == nil || err.Error() != "acemq: CompositeCodec.Decode needs the content type; it is only usable through a consumer, which passes one" {
		t.Errorf("err = %v", err)
	}
}

func TestEmptyCompositeCodecClaimsNothingAndCannotEncode(t *testing.T) {
	c := NewCompositeCodec()
	if _, err := c.Encode("x"); err == nil || c.CanDecode("") {
		t.Errorf("empty composite encoded (err %v) or claimed", err)
	}
}

func TestNewCompositeCodecPanicsOnANilCodec(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "position 1") {
			t.Errorf("recover() = %v", r)
		}
	}()
	NewCompositeCodec(JSONCodec{}, nil)
}

func TestDecodeForGatesASingleCodecOnCanDecode(t *testing.T) {
	var s string
	err := DecodeFor(StringCodec{}, "application/json", []byte(`"x"`), &s)
	if !IsFatal(err) || err.Error() != `no codec reads "application/json"` || s != "" {
		t.Errorf("err = %v, s = %q", err, s)
	}
	if err := DecodeFor(JSONCodec{}, "", []byte(`"x"`), &s); err != nil || s != "x" {
		t.Errorf("claimed: %q, %v", s, err)
	}
}

func TestDecodeForRoutesACompositeByContentType(t *testing.T) {
	c := NewCompositeCodec(JSONCodec{}, StringCodec{})
	var s string
	if err := DecodeFor(c, "text/plain", []byte("plain"), &s); err != nil || s != "plain" {
		t.Errorf("%q, %v", s, err)
	}
	if err := DecodeFor(c, "image/png", nil, &s); !IsFatal(err) || err.Error() != `no codec reads "image/png"` {
		t.Errorf("unclaimed: %v", err)
	}
}
