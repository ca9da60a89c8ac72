// Package payloadtype holds the payloadtype analyzer's cases.
package payloadtype

import (
	"context"

	"example.com/vettest/payloadtype/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

type Order struct {
	ID string `json:"id"`
}

type Refund struct {
	ID string `json:"id"`
}

func redact(_ context.Context, c *acemq.PublishContext) error {
	if o, ok := c.Payload.(Order); ok && o.ID != "" {
		c.Payload = map[string]any{"id": "x"} // want `c.Payload is asserted to Order but assigned a map\[string\]any`
	}
	return nil
}

var pointer acemq.PublishInterceptor = func(_ context.Context, c *acemq.PublishContext) error {
	if _, ok := c.Payload.(*Order); ok {
		c.Payload = Order{} // want `asserted to \*Order but assigned a Order`
	}
	return nil
}

func switched(_ context.Context, c *acemq.PublishContext) error {
	switch p := c.Payload.(type) {
	case Order:
		c.Payload = Refund{ID: p.ID} // want `asserted to Order but assigned a Refund`
	case Refund:
		c.Payload = Refund{ID: "r-" + p.ID}
	}
	return nil
}

var options = []acemq.ConnOption{
	orders.InterceptOrderPlaced(func(_ context.Context, _ *acemq.PublishContext, m *orders.OrderPlaced) error {
		*m = orders.OrderPlaced{} // want `\*m is replaced with the zero orders.OrderPlaced: an empty message is published`
		return nil
	}),
	acemqimpl.InterceptPublish(func(_ context.Context, _ *acemq.PublishContext, m *Order) error {
		*m = *new(Order) // want `\*m is replaced with the zero Order`
		return nil
	}),
	// Not reported: a field changed, a replacement with content, and a
	// zero value kept aside.
	orders.InterceptOrderPlaced(func(_ context.Context, _ *acemq.PublishContext, m *orders.OrderPlaced) error {
		m.OrderID = "redacted"
		return nil
	}),
	acemqimpl.InterceptPublish(func(_ context.Context, _ *acemq.PublishContext, m *Order) error {
		*m = Order{ID: "redacted-" + m.ID}
		var zero Order
		_ = zero
		return nil
	}),
}

// notReported: the asserted type assigned back, a value of interface type,
// no assertion at all, and an assertion in another function.
func notReported(_ context.Context, c *acemq.PublishContext) error {
	if o, ok := c.Payload.(Order); ok {
		o.ID = "redacted"
		c.Payload = o
	}
	var v any = Refund{}
	c.Payload = v
	return nil
}

func noAssertion(_ context.Context, c *acemq.PublishContext) error {
	c.Payload = Refund{}
	return nil
}

func outer(_ context.Context, c *acemq.PublishContext) error {
	if _, ok := c.Payload.(Order); ok {
		go func() { c.Payload = Refund{} }()
	}
	return nil
}

// Message is not a PublishContext: its Payload is nobody's business.
type Message struct{ Payload any }

func other(m *Message) {
	if _, ok := m.Payload.(Order); ok {
		m.Payload = Refund{}
	}
}
