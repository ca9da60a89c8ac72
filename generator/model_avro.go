package generator

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/pkg/crc64"
)

// schemas is the Avro schema of one record: Full is the contract's schema
// with docs, defaults and aliases (what reader-schema resolution needs);
// Canonical is its canonical form as hamba/avro writes it (Parsing Canonical
// Form with logical types kept, so that decoding into the Go types works).
type schemas struct {
	Full        string
	Canonical   string
	Fingerprint uint64 // CRC-64-AVRO of Canonical
}

// avroSchemas builds and checks the schemas of rec with hamba/avro.
func avroSchemas(rec *recordModel) (schemas, error) {
	full, err := marshal(avroRecord(rec, map[*recordModel]bool{}))
	if err != nil {
		return schemas{}, err
	}
	s, err := avro.ParseWithCache(full, "", &avro.SchemaCache{})
	if err != nil {
		return schemas{}, fmt.Errorf("invalid Avro schema for %s: %w", rec.Name, err)
	}
	canonical := canonicalForm(s)
	fp := crc64.Sum([]byte(canonical))
	return schemas{Full: full, Canonical: canonical, Fingerprint: binary.BigEndian.Uint64(fp[:])}, nil
}

// object is a JSON object that keeps its keys in order.
type object []member

type member struct {
	key string
	val any
}

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		v, err := marshal(m.val)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshal(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return string(bytes.TrimRight(b.Bytes(), "\n")), nil
}

// avroRecord is the schema of a named type; one already defined in this
// schema is referred to by its full name.
func avroRecord(rec *recordModel, defined map[*recordModel]bool) any {
	if defined[rec] {
		return rec.FullName
	}
	defined[rec] = true
	switch rec.Shape {
	case enumShape:
		return avroEnum(rec)
	case fixedShape:
		return withAliases(object{{"type", "fixed"}, {"name", rec.FullName}, {"size", rec.Size}}, rec.Aliases)
	}
	o := object{{"type", "record"}, {"name", rec.FullName}}
	if rec.Doc != "" {
		o = append(o, member{"doc", rec.Doc})
	}
	o = withAliases(o, rec.Aliases)
	fields := []any{}
	for _, f := range rec.Fields {
		fields = append(fields, avroField(f, defined))
	}
	return append(o, member{"fields", fields})
}

func avroEnum(rec *recordModel) any {
	o := object{{"type", "enum"}, {"name", rec.FullName}}
	if rec.Doc != "" {
		o = append(o, member{"doc", rec.Doc})
	}
	o = append(withAliases(o, rec.Aliases), member{"symbols", rec.Symbols})
	if rec.EnumDefault != "" {
		o = append(o, member{"default", rec.EnumDefault})
	}
	return o
}

// withAliases adds the Avro aliases of a named type, as full names.
func withAliases(o object, aliases []string) object {
	if len(aliases) == 0 {
		return o
	}
	return append(o, member{"aliases", aliases})
}

func avroField(f *field, defined map[*recordModel]bool) any {
	o := object{{"name", f.Name}, {"type", avroType(f.Type, defined)}}
	if f.Doc != "" {
		o = append(o, member{"doc", f.Doc})
	}
	if f.HasDefault {
		o = append(o, member{"default", f.Default})
	}
	if len(f.Aliases) > 0 {
		o = append(o, member{"aliases", f.Aliases})
	}
	return o
}

// logical maps the YAML logical types to their Avro spelling.
var logical = map[string][2]string{
	"uuid": {"string", "uuid"}, "date": {"int", "date"},
	"time-millis": {"int", "time-millis"}, "time-micros": {"long", "time-micros"},
	"timestamp-millis": {"long", "timestamp-millis"}, "timestamp-micros": {"long", "timestamp-micros"},
}

func avroType(t *typ, defined map[*recordModel]bool) any {
	switch t.Kind {
	case optionalKind:
		return []any{"null", avroType(t.Elem, defined)}
	case arrayKind:
		return object{{"type", "array"}, {"items", avroType(t.Elem, defined)}}
	case mapKind:
		return object{{"type", "map"}, {"values", avroType(t.Elem, defined)}}
	case namedKind:
		return avroRecord(t.Record, defined)
	case decimalKind:
		return object{{"type", "bytes"}, {"logicalType", "decimal"}, {"precision", t.Precision}, {"scale", t.Scale}}
	case unionKind:
		return avroUnion(t, defined)
	}
	if l, ok := logical[t.Prim]; ok {
		return object{{"type", l[0]}, {"logicalType", l[1]}}
	}
	return t.Prim
}

func avroUnion(t *typ, defined map[*recordModel]bool) any {
	var out []any
	if t.Nullable {
		out = append(out, "null")
	}
	for _, b := range t.Branches {
		out = append(out, avroType(b, defined))
	}
	return out
}
