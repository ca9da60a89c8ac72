package contractspec_test

import (
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/generator/contractspec"
)

// The CLI once had a codec switch of its own that lacked xml, so dlq show
// read an xml message with the JSON codec. Every codec a contract may name
// is built here through the registry.
func TestCodecBuildsEveryNonAvroCodecTheContractMayName(t *testing.T) {
	all, _ := generator.CodecNames()
	for _, name := range all {
		if strings.HasPrefix(name, "avro") {
			continue // built from the entry's schemas, which the golden comparison covers
		}
		c, err := contractspec.Codec(generator.Entry{Name: "M", Codec: name})(nil)
		if err != nil {
			t.Errorf("codec %s: %v", name, err)
			continue
		}
		if name != "text" && name != "bytes" && !strings.Contains(c.ContentType(), name) {
			t.Errorf("codec %s writes %s", name, c.ContentType())
		}
	}
}

func TestCodecOfAnAvroEntryUsesItsSchema(t *testing.T) {
	e := generator.Entry{Name: "M", Codec: "avro", AvroSchema: `{"type":"record","name":"M","fields":[{"name":"id","type":"string"}]}`}
	c, err := contractspec.Codec(e)(nil)
	if err != nil || c.ContentType() != "avro/binary" {
		t.Fatalf("avro codec: %v, %v", c, err)
	}
}
