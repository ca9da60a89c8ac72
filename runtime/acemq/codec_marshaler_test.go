package acemq

import (
	"errors"
	"testing"
)

// upperText is a text payload type like the ones acemq-gen emits for text messages.
type upperText struct{ s string }

func (u upperText) MarshalText() ([]byte, error) { return []byte(u.s), nil }
func (u *upperText) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		return errors.New("empty")
	}
	u.s = string(b)
	return nil
}

// blob is a bytes payload type like the ones acemq-gen emits for bytes messages.
type blob struct{ b []byte }

func (x blob) MarshalBinary() ([]byte, error)  { return x.b, nil }
func (x *blob) UnmarshalBinary(b []byte) error { x.b = b; return nil }

func TestStringCodecRoundTripsTextMarshalers(t *testing.T) {
	body, err := StringCodec{}.Encode(upperText{"hello"})
	if err != nil || string(body) != "hello" {
		t.Fatalf("Encode = %q, %v", body, err)
	}
	var got upperText
	if err := (StringCodec{}).Decode(body, &got); err != nil || got.s != "hello" {
		t.Fatalf("Decode = %+v, %v", got, err)
	}
	if err := (StringCodec{}).Decode(nil, &got); !IsFatal(err) {
		t.Fatalf("an UnmarshalText error must be fatal, got %v", err)
	}
}

func TestBytesCodecRoundTripsBinaryMarshalers(t *testing.T) {
	body, err := BytesCodec{}.Encode(blob{[]byte{0, 1, 2}})
	if err != nil || len(body) != 3 {
		t.Fatalf("Encode = %v, %v", body, err)
	}
	var got blob
	if err := (BytesCodec{}).Decode(body, &got); err != nil || string(got.b) != "\x00\x01\x02" {
		t.Fatalf("Decode = %v, %v", got, err)
	}
}
