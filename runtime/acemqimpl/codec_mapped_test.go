package acemqimpl_test

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// Order is a payload.
type Order struct {
	ID    string `json:"id"`
	Total int    `json:"total"`
}

// Refund is another payload.
type Refund struct {
	ID string `json:"id"`
}

// wire is Order as another codec wants it.
type wire struct {
	ID    string `json:"order"`
	Total int    `json:"cents"`
}

func orderMapped() acemq.Codec {
	return acemqimpl.MappedCodec(acemq.JSONCodec{},
		func(o Order) wire { return wire{ID: o.ID, Total: o.Total} },
		func(w wire) Order { return Order{ID: w.ID, Total: w.Total} })
}

func TestMappedCodecWritesAndReadsThroughTheMirror(t *testing.T) {
	c := orderMapped()
	body, err := c.Encode(Order{ID: "o", Total: 5})
	if err != nil || string(body) != `{"order":"o","cents":5}` {
		t.Fatalf("encode: %s, %v", body, err)
	}
	var back Order
	if err := c.Decode(body, &back); err != nil || back != (Order{ID: "o", Total: 5}) {
		t.Fatalf("decode: %+v, %v", back, err)
	}
	if c.ContentType() != (acemq.JSONCodec{}).ContentType() || !c.CanDecode("application/json") {
		t.Fatal("content type is not inner's")
	}
}

func TestMappedCodecPassesOtherTypesAndErrorsToInner(t *testing.T) {
	c := orderMapped()
	if body, err := c.Encode(Refund{ID: "r"}); err != nil || string(body) != `{"id":"r"}` {
		t.Fatalf("encode of another type: %s, %v", body, err)
	}
	var o Order
	if err := c.Decode([]byte("{"), &o); err == nil {
		t.Fatalf("a bad body decoded: %v", err)
	}
}
