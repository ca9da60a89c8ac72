package generator

import (
	"strconv"
	"strings"

	"github.com/hamba/avro/v2"
)

// canonicalForm writes s as hamba/avro's String does (Parsing Canonical Form
// with logical types kept), byte for byte, in time linear in the schema:
// hamba/avro builds the symbols of an enum, the fields of a record and the
// branches of a union by string concatenation, quadratic in their number
// (an enum of 20,000 symbols took seconds per call).
func canonicalForm(s avro.Schema) string {
	var b strings.Builder
	writeCanonical(&b, s)
	return b.String()
}

func writeCanonical(b *strings.Builder, s avro.Schema) {
	switch s := s.(type) {
	case *avro.RecordSchema:
		writeCanonicalRecord(b, s)
	case *avro.EnumSchema:
		b.WriteString(`{"name":"` + s.FullName() + `","type":"enum","symbols":[`)
		for i, sym := range s.Symbols() {
			writeSep(b, i)
			b.WriteString(`"` + sym + `"`)
		}
		b.WriteString("]}")
	case *avro.UnionSchema:
		b.WriteString("[")
		for i, t := range s.Types() {
			writeSep(b, i)
			writeCanonical(b, t)
		}
		b.WriteString("]")
	case *avro.ArraySchema:
		b.WriteString(`{"type":"array","items":`)
		writeCanonical(b, s.Items())
		b.WriteString("}")
	case *avro.MapSchema:
		b.WriteString(`{"type":"map","values":`)
		writeCanonical(b, s.Values())
		b.WriteString("}")
	case *avro.FixedSchema:
		writeCanonicalFixed(b, s)
	default: // primitives (with their logical type), null and references are short
		b.WriteString(s.String())
	}
}

func writeCanonicalRecord(b *strings.Builder, s *avro.RecordSchema) {
	typ := "record"
	if s.IsError() {
		typ = "error"
	}
	b.WriteString(`{"name":"` + s.FullName() + `","type":"` + typ + `","fields":[`)
	for i, f := range s.Fields() {
		writeSep(b, i)
		b.WriteString(`{"name":"` + f.Name() + `","type":`)
		writeCanonical(b, f.Type())
		b.WriteString("}")
	}
	b.WriteString("]}")
}

func writeCanonicalFixed(b *strings.Builder, s *avro.FixedSchema) {
	b.WriteString(`{"name":"` + s.FullName() + `","type":"fixed","size":` + strconv.Itoa(s.Size()))
	if l := s.Logical(); l != nil {
		b.WriteString("," + l.String())
	}
	b.WriteString("}")
}

func writeSep(b *strings.Builder, i int) {
	if i > 0 {
		b.WriteString(",")
	}
}
