// Package benchorder is the one event the codec benchmarks of runtime/avro
// and runtime/codecbench encode, so both measure the same record.
package benchorder

import "time"

// Schema is a realistic 10-field event: strings, longs, a logical
// timestamp, an int, a boolean, a double, an optional string and an array.
const Schema = `{"type":"record","name":"OrderPlaced","namespace":"com.acme.orders","fields":[
  {"name":"orderId","type":"string"},
  {"name":"customerId","type":"string"},
  {"name":"placedAt","type":{"type":"long","logicalType":"timestamp-millis"}},
  {"name":"totalCents","type":"long"},
  {"name":"currency","type":"string"},
  {"name":"itemCount","type":"int"},
  {"name":"express","type":"boolean"},
  {"name":"discount","type":"double"},
  {"name":"note","type":["null","string"],"default":null},
  {"name":"tags","type":{"type":"array","items":"string"}}]}`

// Order is the Go value of Schema, tagged for Avro and JSON.
type Order struct {
	OrderID    string    `avro:"orderId" json:"orderId"`
	CustomerID string    `avro:"customerId" json:"customerId"`
	PlacedAt   time.Time `avro:"placedAt" json:"placedAt"`
	TotalCents int64     `avro:"totalCents" json:"totalCents"`
	Currency   string    `avro:"currency" json:"currency"`
	ItemCount  int32     `avro:"itemCount" json:"itemCount"`
	Express    bool      `avro:"express" json:"express"`
	Discount   float64   `avro:"discount" json:"discount"`
	Note       *string   `avro:"note" json:"note"`
	Tags       []string  `avro:"tags" json:"tags"`
}

// Placed is the PlacedAt of New's order.
var Placed = time.Date(2026, 3, 4, 5, 6, 7, 8e6, time.UTC)

// New returns the order the benchmarks encode, every field set.
func New() Order {
	note := "leave at the back door"
	return Order{OrderID: "ord-2026-000042", CustomerID: "cus-7f3a9c", PlacedAt: Placed,
		TotalCents: 129_99, Currency: "EUR", ItemCount: 3, Express: true, Discount: 0.15,
		Note: &note, Tags: []string{"web", "promo-spring", "gift"}}
}
