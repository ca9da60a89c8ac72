package generator

import "strings"

// The schemas of an AsyncAPI document: a payload in its codec's own format
// (an Avro schema for the Avro codecs, a JSON Schema of the JSON form for
// json, yaml, toml and xml, a string for text and bytes), and the headers as
// a JSON Schema object.

// payload is the payload schema of rec travelling with codec.
func (b *docBuilder) payload(rec *recordModel, codec string) any {
	c, _ := codecNamed(codec)
	switch {
	case c.avro:
		return object{{"schemaFormat", avroSchemaFormat}, {"schema", splitAvroNames(avroRecord(rec, map[*recordModel]bool{}))}}
	case c.raw == "string":
		return object{{"type", "string"}, {"description", "The body as UTF-8 text."}}
	case c.raw == "bytes":
		return object{{"type", "string"}, {"format", "binary"}, {"description", "The body as raw bytes."}}
	}
	return b.schemas.named(rec)
}

// splitAvroNames writes the full name of every named type of an Avro schema
// as name and namespace: @asyncapi/parser refuses a dotted name.
func splitAvroNames(v any) any {
	switch v := v.(type) {
	case object:
		out := make(object, 0, len(v)+1)
		named := false
		if t, ok := v.get("type").(string); ok {
			named = t == "record" || t == "enum" || t == "fixed"
		}
		for _, m := range v {
			name, isName := m.val.(string)
			if named && m.key == "name" && isName && strings.Contains(name, ".") {
				i := strings.LastIndex(name, ".")
				out = append(out, member{"name", name[i+1:]}, member{"namespace", name[:i]})
				continue
			}
			out = append(out, member{m.key, splitAvroNames(m.val)})
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = splitAvroNames(e)
		}
		return out
	}
	return v
}

// get is the value of key, or nil.
func (o object) get(key string) any {
	for _, m := range o {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// jsonSchemas are the JSON Schemas of the named types a document's JSON-form
// payloads use, kept under components/schemas by Avro full name.
type jsonSchemas struct {
	defs  object
	index map[*recordModel]int
}

// named is a reference to rec's schema, defined on first use.
func (s *jsonSchemas) named(rec *recordModel) object {
	if s.index == nil {
		s.index = map[*recordModel]int{}
	}
	if _, done := s.index[rec]; !done {
		s.index[rec] = len(s.defs)
		s.defs = append(s.defs, member{rec.FullName, nil})
		s.defs[s.index[rec]].val = s.define(rec)
	}
	return ref("#/components/schemas/" + rec.FullName)
}

func (s *jsonSchemas) define(rec *recordModel) object {
	o := object{{"title", rec.Name}}
	if rec.Doc != "" {
		o = append(o, member{"description", rec.Doc})
	}
	switch rec.Shape {
	case enumShape:
		o = append(o, member{"type", "string"}, member{"enum", rec.Symbols})
		if rec.EnumDefault != "" {
			o = append(o, member{"default", rec.EnumDefault})
		}
	case fixedShape:
		o = append(o, member{"type", "string"}, member{"contentEncoding", "base64"},
			member{"x-acemq-fixed-size", rec.Size})
	default:
		o = append(o, s.recordMembers(rec)...)
	}
	if rec.Deprecated != "" {
		o = append(o, member{"deprecated", true})
	}
	return append(o, member{"x-acemq-avro-name", rec.FullName})
}

// recordMembers are the type, properties and required fields of a record:
// the JSON codec writes every field; a reader needs those without a default.
func (s *jsonSchemas) recordMembers(rec *recordModel) object {
	props := object{}
	required := []string{}
	for _, f := range rec.Fields {
		props = append(props, member{f.Name, s.field(f)})
		if !f.HasDefault {
			required = append(required, f.Name)
		}
	}
	o := object{{"type", "object"}, {"properties", props}}
	if len(required) > 0 {
		o = append(o, member{"required", required})
	}
	return o
}

func (s *jsonSchemas) field(f *field) object {
	t := s.typeSchema(f.Type)
	if f.Doc == "" && f.Deprecated == "" && !f.HasDefault {
		return t
	}
	// keywords beside a $ref are ignored by draft-07: wrap it
	if t.get("$ref") != nil {
		t = object{{"allOf", []any{t}}}
	}
	if f.Doc != "" {
		t = append(t, member{"description", f.Doc})
	}
	if f.HasDefault && jsonDefault(f.Type) {
		t = append(t, member{"default", f.Default})
	}
	if f.Deprecated != "" {
		t = append(t, member{"deprecated", true})
	}
	return t
}

// jsonDefault reports whether a field's Avro default is also its JSON form:
// null, booleans, numbers, strings and enum symbols.
func jsonDefault(t *typ) bool {
	switch t.Kind {
	case optionalKind:
		return true
	case namedKind:
		return t.Record.Shape == enumShape
	case primitiveKind:
		switch t.Prim {
		case "boolean", "int", "long", "float", "double", "string", "uuid":
			return true
		}
	case unionKind:
		return t.Nullable
	}
	return false
}

// typeSchema is the JSON Schema of the JSON form of t (docs/contracts.md): dates
// and timestamps as RFC 3339 strings, time-* as integers of their unit,
// decimals as strings, bytes and fixed as base64, a multi-branch union as an
// object with one key naming its branch.
func (s *jsonSchemas) typeSchema(t *typ) object {
	switch t.Kind {
	case optionalKind:
		return object{{"oneOf", []any{object{{"type", "null"}}, s.typeSchema(t.Elem)}}}
	case arrayKind:
		return object{{"type", "array"}, {"items", s.typeSchema(t.Elem)}}
	case mapKind:
		return object{{"type", "object"}, {"additionalProperties", s.typeSchema(t.Elem)}}
	case namedKind:
		return s.named(t.Record)
	case decimalKind:
		return object{{"type", "string"}, {"pattern", `^-?[0-9]+(\.[0-9]+)?$`},
			{"x-acemq-decimal", object{{"precision", t.Precision}, {"scale", t.Scale}}}}
	case unionKind:
		return s.union(t)
	}
	return primitiveSchema(t.Prim)
}

func (s *jsonSchemas) union(t *typ) object {
	var branches []any
	if t.Nullable {
		branches = append(branches, object{{"type", "null"}})
	}
	for _, br := range t.Branches {
		key := branchKey(br)
		branches = append(branches, object{{"type", "object"}, {"properties", object{{key, s.typeSchema(br)}}},
			{"required", []string{key}}, {"additionalProperties", false}})
	}
	return object{{"oneOf", branches}}
}

func primitiveSchema(prim string) object {
	switch prim {
	case "boolean":
		return object{{"type", "boolean"}}
	case "int":
		return object{{"type", "integer"}, {"format", "int32"}}
	case "long":
		return object{{"type", "integer"}, {"format", "int64"}}
	case "float":
		return object{{"type", "number"}, {"format", "float"}}
	case "double":
		return object{{"type", "number"}, {"format", "double"}}
	case "bytes":
		return object{{"type", "string"}, {"contentEncoding", "base64"}}
	case "uuid":
		return object{{"type", "string"}, {"format", "uuid"}}
	case "date", "timestamp-millis", "timestamp-micros":
		return object{{"type", "string"}, {"format", "date-time"}, {"x-acemq-logical-type", prim}}
	case "time-millis":
		return object{{"type", "integer"}, {"x-acemq-unit", "milliseconds"}}
	case "time-micros":
		return object{{"type", "integer"}, {"x-acemq-unit", "microseconds"}}
	}
	return object{{"type", "string"}}
}

// envelopeHeader is one reserved x-acemq-* header (FAMILY-SPEC §2.2).
type envelopeHeader struct {
	name, typ, doc string
	required       bool
}

var envelopeHeaderList = []envelopeHeader{
	{"x-acemq-id", "string", "The message ID (also the AMQP message-id property).", true},
	{"x-acemq-type", "string", "The message type.", true},
	{"x-acemq-version", "integer", "The contract version of the message.", true},
	{"x-acemq-correlation", "string", "Ties a conversation together; defaults to the ID.", true},
	{"x-acemq-causation", "string", "The ID of the message that caused this one; absent when none.", false},
	{"x-acemq-attempt", "integer", "The delivery attempt, starting at 1.", true},
	{"x-acemq-first-seen", "integer", "When the message was first published, in epoch milliseconds.", true},
	{"x-acemq-origin", "string", "Who published it; acemq@<host> by default.", false},
	{"x-acemq-error", "string", "Why a dead-lettered or parked message failed.", false},
	{"x-acemq-claim", "string", "Reserved.", false},
	{"x-acemq-route", "string", "A routing slip's step names, comma-joined.", false},
	{"x-acemq-route-position", "integer", "The routing slip's position, 0-based.", false},
	{"x-acemq-route-id", "string", "The routing slip's run ID.", false},
}

// rpcHeaders are the request/reply application headers of an RPC request
// or response (FAMILY-SPEC §2.3).
func rpcHeaders(request bool) []envelopeHeader {
	if request {
		return []envelopeHeader{
			{"acemq-reply-to", "string", "The reply address, also the AMQP reply-to property.", true},
			{"acemq-deadline", "integer", "The caller's deadline in epoch milliseconds.", true},
		}
	}
	return []envelopeHeader{
		{"acemq-error", "string", "Marks a failure reply (its body is the RPC codec's null or zero value): the declared error's code, the generic failure text, or a family peer's Class: text, which names a declared error by its class.", false},
		{"acemq-error-code", "string", "A declared error's code.", false},
	}
}

// envelopeHeaders is the headers schema of a message: the envelope's
// x-acemq-* headers (x-acemq-type defaulting to typeValue unless it is ""),
// the RPC headers extra, and the contract's headers.
func envelopeHeaders(typeValue string, version int, hs []*header, extra []envelopeHeader) object {
	props := object{}
	required := []string{}
	add := func(name string, schema object, req bool) {
		props = append(props, member{name, schema})
		if req {
			required = append(required, name)
		}
	}
	for _, h := range envelopeHeaderList {
		schema := object{{"type", h.typ}, {"description", h.doc}}
		switch h.name {
		case "x-acemq-type":
			if typeValue != "" {
				schema = append(schema, member{"default", typeValue})
			}
		case "x-acemq-version":
			schema = append(schema, member{"default", version})
		case "x-acemq-attempt":
			schema = append(schema, member{"minimum", 1})
		}
		add(h.name, schema, h.required)
	}
	for _, h := range extra {
		add(h.name, object{{"type", h.typ}, {"description", h.doc}}, h.required)
	}
	for _, h := range hs {
		add(h.Name, contractHeader(h), h.Required)
	}
	return object{{"type", "object"}, {"properties", props}, {"required", required}}
}

// contractHeader is the schema of a contract's header; an untyped header is
// a string whose value no rule checks.
func contractHeader(h *header) object {
	var o object
	switch h.Type {
	case "boolean":
		o = object{{"type", "boolean"}}
	case "int":
		o = object{{"type", "integer"}, {"format", "int32"}}
	case "long":
		o = object{{"type", "integer"}, {"format", "int64"}}
	case "double":
		o = object{{"type", "number"}, {"format", "double"}}
	default:
		o = object{{"type", "string"}}
	}
	if h.Doc != "" {
		o = append(o, member{"description", h.Doc})
	}
	if !h.Typed {
		o = append(o, member{"x-acemq-untyped", true})
	}
	return o
}
