package acemq

import (
	"testing"
)

func TestBytesCodecCopiesOnEncodeAndDecode(t *testing.T) {
	c := BytesCodec{}
	in := []byte("abc")
	body, err := c.Encode(in)
	in[0] = 'X'
	if err != nil || string(body) != "abc" {
		t.Fatalf("Encode = %q, %v: want a copy", body, err)
	}
	var out []byte
	if err := c.Decode(body, &out); err != nil || string(out) != "abc" {
		t.Fatalf("Decode = %q, %v", out, err)
	}
	body[0] = 'Y'
	if string(out) != "abc" {
		t.Errorf("Decode shares the body's memory")
	}
	var s string
	if err := c.Decode([]byte("hi"), &s); err != nil || s != "hi" {
		t.Errorf("Decode into string = %q, %v", s, err)
	}
}

func TestBytesCodecRefusesOtherTypesAsFatal(t *testing.T) {
	if _, err := (BytesCodec{}).Encode(42); !IsFatal(err) {
		t.Errorf("Encode(42) err = %v, want fatal", err)
	}
	var n int
	if err := (BytesCodec{}).Decode([]byte("1"), &n); !IsFatal(err) {
		t.Errorf("Decode into *int err = %v, want fatal", err)
	}
}

func TestBytesCodecClaimsEveryContentType(t *testing.T) {
	for _, ct := range []string{"", "application/json", "anything/at-all"} {
		if !(BytesCodec{}).CanDecode(ct) {
			t.Errorf("CanDecode(%q) = false", ct)
		}
	}
	if (BytesCodec{}).ContentType() != "application/octet-stream" {
		t.Errorf("ContentType = %q", BytesCodec{}.ContentType())
	}
}
