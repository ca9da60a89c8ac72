package xml

import (
	"testing"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

func TestImportRegistersTheCodecAsXML(t *testing.T) {
	c, err := acemq.CodecByName("xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(Codec); !ok {
		t.Fatalf("CodecByName(%q) = %T", "xml", c)
	}
}
