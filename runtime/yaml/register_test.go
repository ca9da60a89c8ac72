package yaml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/codecvectors"
)

func TestImportRegistersTheCodecAsYAML(t *testing.T) {
	codecvectors.ExpectRegistered[Codec](t, "yaml")
}
