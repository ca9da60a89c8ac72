package main

import (
	"context"
	"log"

	"example.com/shop/orders"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// handlePlaced charges an order: the total through a helper, the coupon
// through a closure.
func handlePlaced(_ context.Context, m acemq.Message[orders.OrderPlaced]) acemq.Ack {
	discount := func() int64 {
		if m.Payload.CouponCode != nil {
			return 100
		}
		return 0
	}
	log.Printf("billing: order %s charged %d", m.Payload.OrderID, charge(m.Payload)-discount())
	return acemq.Accept()
}

// charge is what an order costs.
func charge(p orders.OrderPlaced) int64 {
	return p.TotalCents
}
