package generator

import (
	"fmt"
	"strings"

	"github.com/hamba/avro/v2"
)

// compatSchemas checks the payload schemas of b (BASE) and n (new) in
// every direction the payload's role and cfg demand.
func compatSchemas(d *diags, b, n compatItem, cfg compatConfig) {
	base, err := compatParse(b.record)
	if err != nil {
		d.errorf(n.pos, "%s: BASE: %v", n.name, err)
		return
	}
	next, err := compatParse(n.record)
	if err != nil {
		d.errorf(n.pos, "%s: %v", n.name, err)
		return
	}
	for _, c := range compatChecks(compatRoleOf(b.kind), cfg) {
		compatDirection(d, n, base, next, c)
	}
}

// compatParse parses the message's full schema (with defaults and aliases,
// which resolution needs) with a cache of its own.
func compatParse(rec *Record) (avro.Schema, error) {
	if rec == nil || rec.Avro.Full == "" {
		return nil, fmt.Errorf("no Avro schema to compare")
	}
	s, err := avro.ParseWithCache(rec.Avro.Full, "", &avro.SchemaCache{})
	if err != nil {
		return nil, fmt.Errorf("invalid Avro schema: %w", err)
	}
	return s, nil
}

// compatDirection asks hamba/avro whether the reader of c.dir resolves the
// writer, and explains each failure it finds.
func compatDirection(d *diags, n compatItem, base, next avro.Schema, c compatCheck) {
	reader, writer := c.dir.order(base, next)
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
		d.errorf(compatPos(n, f.path), "%s: %s: %s (rule: %s)", n.name, compatPath(f.path), f.change, c.rule)
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

// compatPos is the position in n's contract of the deepest field of path
// that still exists there; for a field that does not, the record that lacks
// it (the message itself at the top).
func compatPos(n compatItem, path []string) Pos {
	pos, rec := n.pos, n.record
	for _, name := range path {
		if name == "[]" || name == "{}" {
			continue
		}
		f := compatField(rec, name)
		if f == nil {
			if rec != nil && rec != n.record {
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
