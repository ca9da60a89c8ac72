// Package shared declares payload types in another package.
package shared

// Money is untagged.
type Money struct {
	Cents    int64
	Currency string
}

// Tagged is tagged.
type Tagged struct {
	Cents int64 `json:"cents"`
}
