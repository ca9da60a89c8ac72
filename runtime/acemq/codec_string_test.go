package acemq

import (
	"testing"
)

type stringer struct{}

func (stringer) String() string { return "from Stringer" }

func TestStringCodecEncodesStringsBytesAndStringers(t *testing.T) {
	c := StringCodec{}
	for in, want := range map[any]string{"plain": "plain", stringer{}: "from Stringer"} {
		if body, err := c.Encode(in); err != nil || string(body) != want {
			t.Errorf("Encode(%v) = %q, %v", in, body, err)
		}
	}
	if body, err := c.Encode([]byte("raw")); err != nil || string(body) != "raw" {
		t.Errorf("Encode([]byte) = %q, %v", body, err)
	}
	if _, err := c.Encode(3.5); !IsFatal(err) {
		t.Errorf("Encode(3.5) err = %v, want fatal", err)
	}
}

func TestStringCodecInvalidUTF8IsFatal(t *testing.T) {
	var s string
	err := StringCodec{}.Decode([]byte{0xff, 0xfe, 'a'}, &s)
	if !IsFatal(err) || s != "" {
		t.Fatalf("err = %v, s = %q: want a fatal refusal and nothing decoded", err, s)
	}
	if err := (StringCodec{}).Decode([]byte("héllo"), &s); err != nil || s != "héllo" {
		t.Errorf("Decode = %q, %v", s, err)
	}
}

func TestStringCodecClaimsTextButNotAnUntypedMessage(t *testing.T) {
	cases := map[string]bool{"": false, "text/plain": true, "Text/Plain; charset=utf-8": true, "text/csv": true, "application/json": false}
	for ct, want := range cases {
		if got := (StringCodec{}).CanDecode(ct); got != want {
			t.Errorf("CanDecode(%q) = %v, want %v", ct, got, want)
		}
	}
	if (StringCodec{}).ContentType() != "text/plain; charset=utf-8" {
		t.Errorf("ContentType = %q", StringCodec{}.ContentType())
	}
}
