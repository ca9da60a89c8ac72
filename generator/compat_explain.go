package generator

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hamba/avro/v2"
)

// compatExplainer walks a reader and a writer schema that hamba/avro found
// incompatible, the way its SchemaCompatibility does, and records where and
// why they fail in words a contract author understands. hamba/avro stays the
// judge: the explainer only runs once it refused, and only descends where its
// Compatible fails.
type compatExplainer struct {
	c    *avro.SchemaCompatibility
	dir  compatDir
	base string // what the older schema is called: BASE, or a registry version
	out  []compatFinding
}

// compatFinding is one breaking change: the field path and what changed;
// inType when the change is in the definition of the field's named type
// (enum symbols, fixed size, a rename), which is then where it points.
type compatFinding struct {
	path   []string
	change string
	inType bool
}

func (e *compatExplainer) add(path []string, format string, args ...any) {
	e.out = append(e.out, compatFinding{path: slices.Clone(path), change: fmt.Sprintf(format, args...)})
}

// addInType records a change in the definition of the named type at path.
func (e *compatExplainer) addInType(path []string, format string, args ...any) {
	e.add(path, format, args...)
	e.out[len(e.out)-1].inType = true
}

// fails reports whether reader cannot read what writer wrote.
func (e *compatExplainer) fails(reader, writer avro.Schema) bool {
	return e.c.Compatible(reader, writer) != nil
}

// baseNew orders a reader and a writer as (BASE, new).
func (e *compatExplainer) baseNew(reader, writer avro.Schema) (avro.Schema, avro.Schema) {
	if e.dir == compatForward {
		return reader, writer
	}
	return writer, reader
}

func (e *compatExplainer) walk(reader, writer avro.Schema, path []string) {
	reader, writer = compatDeref(reader), compatDeref(writer)
	if reader.Type() != writer.Type() {
		e.mismatch(reader, writer, path)
		return
	}
	switch reader.Type() {
	case avro.Array:
		e.walk(reader.(*avro.ArraySchema).Items(), writer.(*avro.ArraySchema).Items(), append(slices.Clip(path), "[]"))
	case avro.Map:
		e.walk(reader.(*avro.MapSchema).Values(), writer.(*avro.MapSchema).Values(), append(slices.Clip(path), "{}"))
	case avro.Record:
		e.record(reader.(*avro.RecordSchema), writer.(*avro.RecordSchema), path)
	case avro.Enum:
		e.enum(reader.(*avro.EnumSchema), writer.(*avro.EnumSchema), path)
	case avro.Fixed:
		e.fixed(reader.(*avro.FixedSchema), writer.(*avro.FixedSchema), path)
	case avro.Union:
		e.unions(reader.(*avro.UnionSchema), writer.(*avro.UnionSchema), path)
	}
}

func compatDeref(s avro.Schema) avro.Schema {
	if r, ok := s.(*avro.RefSchema); ok {
		return r.Schema()
	}
	return s
}

// mismatch explains a reader and a writer of different types: a type change
// Avro does not promote, or an optional that became required or back.
func (e *compatExplainer) mismatch(reader, writer avro.Schema, path []string) {
	if u, ok := writer.(*avro.UnionSchema); ok {
		e.writerUnion(reader, u, path)
		return
	}
	if u, ok := reader.(*avro.UnionSchema); ok {
		if b := compatSameType(u.Types(), writer); b != nil {
			e.walk(b, writer, path)
			return
		}
	}
	e.typeChange(reader, writer, reader, writer, path)
}

// writerUnion explains the first branch of the writer's union the reader
// cannot read.
func (e *compatExplainer) writerUnion(reader avro.Schema, u *avro.UnionSchema, path []string) {
	for _, b := range u.Types() {
		switch {
		case !e.fails(reader, b):
		case compatDeref(b).Type() == reader.Type():
			e.walk(reader, b, path)
			return
		default:
			e.typeChange(reader, u, reader, b, path)
			return
		}
	}
}

func compatSameType(branches []avro.Schema, s avro.Schema) avro.Schema {
	for _, b := range branches {
		if compatDeref(b).Type() == s.Type() && compatSameName(compatDeref(b), s) {
			return b
		}
	}
	return nil
}

func compatSameName(a, b avro.Schema) bool {
	na, okA := a.(avro.NamedSchema)
	nb, okB := b.(avro.NamedSchema)
	return !okA || !okB || na.Name() == nb.Name()
}

// typeChange reports that the field's type changed from reader to writer
// (in BASE, new order) and that a written w cannot be read as r.
func (e *compatExplainer) typeChange(reader, writer, r, w avro.Schema, path []string) {
	base, next := e.baseNew(reader, writer)
	e.add(path, "type changed from %s to %s, and Avro cannot read a written %s as %s",
		compatTypeName(base), compatTypeName(next), compatTypeName(w), compatTypeName(r))
}

// compatTypeName spells a schema for a message: long, optional string,
// array of record com.example.Line, long (timestamp-millis).
func compatTypeName(s avro.Schema) string {
	s = compatDeref(s)
	switch t := s.(type) {
	case *avro.PrimitiveSchema:
		if l := t.Logical(); l != nil {
			return fmt.Sprintf("%s (%s)", t.Type(), l.Type())
		}
	case avro.NamedSchema:
		return fmt.Sprintf("%s %s", t.Type(), t.FullName())
	case *avro.ArraySchema:
		return "array of " + compatTypeName(t.Items())
	case *avro.MapSchema:
		return "map of " + compatTypeName(t.Values())
	case *avro.UnionSchema:
		return compatUnionName(t)
	}
	return string(s.Type())
}

func compatUnionName(u *avro.UnionSchema) string {
	if u.Nullable() && len(u.Types()) == 2 {
		return "optional " + compatTypeName(u.Types()[1-compatNullIndex(u)])
	}
	names := make([]string, len(u.Types()))
	for i, b := range u.Types() {
		names[i] = compatTypeName(b)
	}
	return "union [" + strings.Join(names, ", ") + "]"
}

func compatNullIndex(u *avro.UnionSchema) int {
	for i, b := range u.Types() {
		if b.Type() == avro.Null {
			return i
		}
	}
	return -1
}

// baseLabel is what findings call the older schema: BASE unless set.
func (e *compatExplainer) baseLabel() string { return cmp.Or(e.base, "BASE") }
