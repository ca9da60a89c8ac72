package yaml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/codecvectors"
)

// TestDecodesTheFamilyYAMLVectors decodes the YAML bodies Java and Go wrote
// in the family's codec vectors to the values they carry.
func TestDecodesTheFamilyYAMLVectors(t *testing.T) {
	codecvectors.Check(t, "../..", Codec{}, "yaml", 4)
}

// order is the payload of the family's codec vectors, as the other tests of
// this package use it.
type order = codecvectors.Order
