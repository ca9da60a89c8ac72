package toml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/codecvectors"
)

// TestDecodesTheFamilyTOMLVectors decodes the TOML bodies Java and Go wrote
// in the family's codec vectors to the values they carry.
func TestDecodesTheFamilyTOMLVectors(t *testing.T) {
	codecvectors.Check(t, "../..", Codec{}, "toml", 4)
}

// order is the payload of the family's codec vectors, as the other tests of
// this package use it.
type order = codecvectors.Order
