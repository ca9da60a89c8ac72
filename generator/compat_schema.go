package generator

import (
	"fmt"
	"strings"

	"github.com/hamba/avro/v2"
)

// compatSchemas checks the payload schemas of bm (BASE) and nm (new) in
// every direction the message's role and cfg demand.
func compatSchemas(d *diags, bm, nm *Message, cfg compatConfig) {
	base, err := compatParse(bm)
	if err != nil {
		d.errorf(nm.Pos, "%s: BASE: %v", nm.Name, err)
		return
	}
	next, err := compatParse(nm)
	if err != nil {
		d.errorf(nm.Pos, "%s: %v", nm.Name, err)
		return
	}
	for _, c := range compatChecks(compatRoleOf(bm), cfg) {
		compatDirection(d, nm, base, next, c)
	}
}

// compatParse parses the message's full schema (with defaults and aliases,
// which resolution needs) with a cache of its own.
func compatParse(m *Message) (avro.Schema, error) {
	if m.Record == nil || m.Record.Avro.Full == "" {
		return nil, fmt.Errorf("no Avro schema to compare")
	}
	s, err := avro.ParseWithCache(m.Record.Avro.Full, "", &avro.SchemaCache{})
	if err != nil {
		return nil, fmt.Errorf("invalid Avro schema: %w", err)
	}
	return s, nil
}

// compatDirection asks hamba/avro whether the reader of c.dir resolves the
// writer, and explains each failure it finds.
func compatDirection(d *diags, nm *Message, base, next avro.Schema, c compatCheck) {
	reader, writer := next, base
	if c.dir == compatForward {
		reader, writer = base, next
	}
	sc := avro.NewSchemaCompatibility()
	err := sc.Compatible(reader, writer)
	if err == nil {
		return
	}
	e := &compatExplainer{c: sc, dir: c.dir}
	e.walk(reader, writer, nil)
	if len(e.out) == 0 {
		e.add(nil, "changed incompatibly: %v", err)
	}
	for _, f := range e.out {
		d.errorf(compatPos(nm, f.path), "%s: %s: %s (rule: %s)", nm.Name, compatPath(f.path), f.change, c.rule)
	}
}

// compatPath renders a field path: total.cents, lines[].sku, labels{}.
func compatPath(path []string) string {
	if len(path) == 0 {
		return "payload"
	}
	var b strings.Builder
	for i, p := range path {
		if i > 0 && p != "[]" && p != "{}" {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// compatPos is the position in nm's contract of the deepest field of path
// that still exists there; for a field that does not, the record that lacks
// it (the message itself at the top).
func compatPos(nm *Message, path []string) Pos {
	pos, rec := nm.Pos, nm.Record
	for _, name := range path {
		if name == "[]" || name == "{}" {
			continue
		}
		f := compatField(rec, name)
		if f == nil {
			if rec != nil && rec != nm.Record {
				pos = rec.Pos
			}
			break
		}
		pos, rec = f.Pos, compatRecordOf(f.Type)
	}
	return pos
}

func compatField(rec *Record, name string) *Field {
	if rec == nil {
		return nil
	}
	for _, f := range rec.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// compatRecordOf is the record a field type holds, through optionals, arrays and
// maps; nil when it holds none.
func compatRecordOf(t *Type) *Record {
	for ; t != nil; t = t.Elem {
		if t.Record != nil {
			return t.Record
		}
	}
	return nil
}
