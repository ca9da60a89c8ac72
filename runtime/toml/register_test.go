package toml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/codecvectors"
)

func TestImportRegistersTheCodecAsTOML(t *testing.T) {
	codecvectors.ExpectRegistered[Codec](t, "toml")
}
