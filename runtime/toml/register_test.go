package toml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestImportRegistersTheCodecAsTOML(t *testing.T) {
	c, err := acemq.CodecByName("toml")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(Codec); !ok {
		t.Fatalf("CodecByName(%q) = %T", "toml", c)
	}
}
