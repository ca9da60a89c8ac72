package site

import (
	"bytes"
	"encoding/base64"
	"encoding/json"

	"github.com/acemq/acemq-gen/generator"
)

// examplePayload is a JSON example of e's payload made from its types: each
// field's default when it has one, else a value of its type; "" when the
// payload has no record and no raw type.
func examplePayload(e generator.Entry, types map[string]*typeView) string {
	x := &exampler{types: types, open: map[string]bool{}}
	var v any
	switch {
	case e.Payload != nil:
		v = x.record(*e.Payload)
	case e.Raw == "string":
		v = "Hello, world"
	case e.Raw == "bytes":
		v = "AAECAw=="
	default:
		return ""
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return ""
	}
	return string(b)
}

// exampler makes example values; open holds the records being made, so a
// recursive type ends in null.
type exampler struct {
	types map[string]*typeView
	open  map[string]bool
}

// object is a JSON object whose keys keep their order.
type object []member

type member struct {
	key   string
	value any
}

// MarshalJSON writes o's members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (x *exampler) record(t generator.Type) any {
	switch t.Shape {
	case "enum":
		if t.EnumDefault != "" {
			return t.EnumDefault
		}
		if len(t.Symbols) > 0 {
			return t.Symbols[0]
		}
		return ""
	case "fixed":
		return base64.StdEncoding.EncodeToString(make([]byte, t.Size))
	}
	key := t.Domain + "." + t.Name
	if x.open[key] {
		return nil
	}
	x.open[key] = true
	defer delete(x.open, key)
	o := object{}
	for _, f := range t.Fields {
		v := x.value(f.Type)
		if f.HasDefault && f.Default != nil {
			v = f.Default
		}
		o = append(o, member{f.Name, v})
	}
	return o
}

func (x *exampler) value(t generator.FieldType) any {
	switch t.Kind {
	case "named":
		if tv := x.types[t.Domain+"."+t.Name]; tv != nil {
			return x.record(tv.Type)
		}
		return nil
	case "optional":
		return x.value(*t.Elem)
	case "array":
		return []any{x.value(*t.Elem)}
	case "map":
		return object{{"key", x.value(*t.Elem)}}
	case "union":
		if len(t.Branches) == 0 {
			return nil
		}
		return x.value(t.Branches[0])
	case "decimal":
		return "12.34"
	}
	return primitiveExample[t.Name]
}

// primitiveExample is an example value of each primitive and logical type,
// as the JSON codec writes it.
var primitiveExample = map[string]any{
	"boolean": true, "int": 42, "long": 1234567890123, "float": 1.5, "double": 2.25,
	"string": "text", "bytes": "AAECAw==", "uuid": "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
	"date": "2026-01-31", "timestamp-millis": "2026-01-31T12:00:00.000Z",
	"timestamp-micros": "2026-01-31T12:00:00.000000Z", "time-millis": 1500, "time-micros": 1500000,
}
