// Package money holds sums of money, shared by the services of a company.
package money

// Amount is a sum of money in cents of a currency.
type Amount struct {
	Cents    int64    `json:"cents" avro:"cents"`
	Currency Currency `json:"currency" avro:"currency"`
	Note     *string  `json:"note" avro:"note"`
	cache    string   // unexported: never on the wire
}

// Currency is an ISO 4217 currency code.
type Currency string

// The currencies the company trades in.
const (
	EUR Currency = "EUR"
	USD Currency = "USD"
)

// Cached reports what the unexported field holds, so it is used.
func (a Amount) Cached() string { return a.cache }
