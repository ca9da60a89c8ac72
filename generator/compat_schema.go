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
		compatDirection(d, n, base, next, c, cfg.usage)
	}
}

// compatParse parses the message's full schema (with defaults and aliases,
// which resolution needs) with a cache of its own.
func compatParse(rec *recordModel) (avro.Schema, error) {
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
func compatDirection(d *diags, n compatItem, base, next avro.Schema, c compatCheck, u compatUsage) {
	reader, writer := c.dir.order(base, next)
	sc := avro.NewSchemaCompatibility()
	err := sc.Compatible(reader, writer)
	if err == nil {
		return
	}
	e := &compatExplainer{c: sc, dir: c.dir, base: c.base}
	e.walk(reader, writer, nil)
	if len(e.out) == 0 {
		e.add(nil, "changed incompatibly: %v", err)
	}
	for _, f := range e.out {
		u.report(d, n, f, c, fmt.Sprintf("%s: %s: %s (rule: %s)", n.name, compatPath(f.path), f.change, c.rule))
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

// compatPos is the position in n's contract of the deepest field of f's
// path that still exists there; for a field that does not, the record that
// lacks it (the message itself at the top); for a change in a named type's
// definition, that definition.
func compatPos(n compatItem, f compatFinding) Pos {
	pos, rec := n.pos, n.record
	for _, name := range f.path {
		if name == "[]" || name == "{}" {
			continue
		}
		field := compatField(rec, name)
		if field == nil {
			return compatRecordPos(n, rec, pos)
		}
		pos, rec = field.Pos, compatRecordOf(field.Type)
	}
	if f.inType && len(f.path) > 0 {
		return compatRecordPos(n, rec, pos)
	}
	return pos
}

// compatRecordPos is where rec is declared, unless it is n's own payload
// (or none): then it is pos.
func compatRecordPos(n compatItem, rec *recordModel, pos Pos) Pos {
	if rec != nil && rec != n.record {
		return rec.Pos
	}
	return pos
}

func compatField(rec *recordModel, name string) *field {
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
func compatRecordOf(t *typ) *recordModel {
	for ; t != nil; t = t.Elem {
		if t.Record != nil {
			return t.Record
		}
	}
	return nil
}
