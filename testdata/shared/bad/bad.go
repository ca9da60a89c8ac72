// Package bad holds a type for each way a Go type can differ from the
// contract type bound to it; golden case diag_bound expects each diagnostic.
package bad

import "example.com/shared/money"

// Amount differs from the contract's Money in every way a field can.
type Amount struct {
	Cents    int64  `json:"cents_total" avro:"cents"`
	Currency string `json:"currency" avro:"currency"`
	Note     string `json:"note"`
	Rate     int32  `json:"rate" avro:"fx_rate"`
	Extra    string
	Tagged   string `json:"tagged" avro:"tagged"`
	Skipped  string `json:"-" avro:"-"`
	label    string `json:"label" avro:"label"`
	Region   string `json:"region" avro:"region" yaml:"area"`
}

// Label is there so that the unexported field is used.
func (a Amount) Label() string { return a.label }

// Level is an enum of the contract bound to an integer.
type Level int

// Short is a fixed type of the contract bound to an array of another length.
type Short [4]byte

// Plain is a fixed type of the right length without text methods.
type Plain [8]byte

// Cents is a record of the contract bound to an integer.
type Cents int64

// Wallet holds a money.Amount where the contract has another record.
type Wallet struct {
	Balance money.Amount `json:"balance" avro:"balance"`
}
