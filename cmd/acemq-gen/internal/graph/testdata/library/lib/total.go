// Package lib is a library the ledger service calls with its payloads.
package lib

import "example.com/shop/orders"

// Total is what an order costs.
func Total(p orders.OrderPlaced) int64 {
	return p.TotalCents
}
