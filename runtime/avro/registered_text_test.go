package avro

import (
	"strings"
	"testing"
)

const (
	lineCanonical = `{"type":"record","name":"Line","namespace":"com.acme","fields":[{"name":"sku","type":"string"},{"name":"qty","type":"int"}]}`
	lineFull      = `{"type":"record","name":"Line","namespace":"com.acme","doc":"one order line","fields":[{"name":"sku","type":"string"},{"name":"qty","type":"int","default":1}]}`
	lineOther     = `{"type":"record","name":"Line","namespace":"com.acme","fields":[{"name":"sku","type":"string"}]}`
)

// registeredText is the definition the codec registers under "lines".
func registeredText(t *testing.T, schema string, opts ...Option) string {
	t.Helper()
	reg := NewMemoryRegistry()
	c, err := Registered(reg, "lines", schema, opts...)
	if err != nil {
		t.Fatal(err)
	}
	id, err := c.SchemaID(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	def, err := reg.ByID(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return def.Definition
}

// A registry checking BACKWARD compatibility must see a new field's default
// to accept it: the codec registers the reader schema's text when it is the
// same record as the writer's, as generated code passes it.
func TestRegisteredCodecRegistersTheReaderSchemaThatDescribesTheSameRecord(t *testing.T) {
	if got := registeredText(t, lineCanonical, ReaderSchema(lineFull)); got != lineFull {
		t.Fatalf("registered %s, want the reader's text with its default", got)
	}
	if got := registeredText(t, lineCanonical); got != lineCanonical {
		t.Fatalf("without a reader schema registered %s, want the writer's", got)
	}
	if got := registeredText(t, lineOther, ReaderSchema(lineFull)); got != lineOther || strings.Contains(got, "qty") {
		t.Fatalf("a reader of another record registered %s, want the writer's own text", got)
	}
}
