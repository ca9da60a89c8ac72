package generator

import (
	"encoding/base64"
	"encoding/json"
)

// examplePayload is a JSON example of a payload made from its types: each
// field's default when it has one, else a value of its type; raw is the
// raw codec's type when rec is nil. "" when there is neither.
func examplePayload(rec *recordModel, raw string) string {
	var v any
	switch {
	case rec != nil:
		v = exampleRecord(rec, map[*recordModel]bool{})
	case raw == "string":
		v = "Hello, world"
	case raw == "bytes":
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

// exampleRecord is an example value of rec; open holds the records being
// made, so a recursive type ends in null.
func exampleRecord(rec *recordModel, open map[*recordModel]bool) any {
	switch rec.Shape {
	case enumShape:
		if rec.EnumDefault != "" {
			return rec.EnumDefault
		}
		return rec.Symbols[0]
	case fixedShape:
		return base64.StdEncoding.EncodeToString(make([]byte, rec.Size))
	}
	if open[rec] {
		return nil
	}
	open[rec] = true
	defer delete(open, rec)
	o := object{}
	for _, f := range rec.Fields {
		v := exampleValue(f.Type, open)
		if f.HasDefault && f.Default != nil {
			v = f.Default
		}
		o = append(o, member{f.Name, v})
	}
	return o
}

func exampleValue(t *typ, open map[*recordModel]bool) any {
	switch t.Kind {
	case namedKind:
		return exampleRecord(t.Record, open)
	case optionalKind:
		return exampleValue(t.Elem, open)
	case arrayKind:
		return []any{exampleValue(t.Elem, open)}
	case mapKind:
		return object{{"key", exampleValue(t.Elem, open)}}
	case unionKind:
		return exampleValue(t.Branches[0], open)
	case decimalKind:
		return "12.34"
	}
	return primitiveExample[t.Prim]
}

// primitiveExample is an example value of each primitive and logical type,
// as the JSON codec writes it.
var primitiveExample = map[string]any{
	"boolean": true, "int": 42, "long": 1234567890123, "float": 1.5, "double": 2.25,
	"string": "text", "bytes": "AAECAw==", "uuid": "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
	"date": "2026-01-31", "timestamp-millis": "2026-01-31T12:00:00.000Z",
	"timestamp-micros": "2026-01-31T12:00:00.000000Z", "time-millis": 1500, "time-micros": 1500000,
}
