package yaml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestImportRegistersTheCodecAsYAML(t *testing.T) {
	c, err := acemq.CodecByName("yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(Codec); !ok {
		t.Fatalf("CodecByName(%q) = %T", "yaml", c)
	}
}
