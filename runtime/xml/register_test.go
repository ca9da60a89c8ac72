package xml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/internal/codecvectors"
)

func TestImportRegistersTheCodecAsXML(t *testing.T) {
	codecvectors.ExpectRegistered[Codec](t, "xml")
}
