package generator

import (
	"slices"
	"strings"

	"github.com/hamba/avro/v2"
)

// renamed reports a named type whose writer name the reader neither has nor
// lists among its aliases, as hamba/avro's SchemaCompatibility checks it.
func (e *compatExplainer) renamed(reader, writer avro.NamedSchema, path []string) bool {
	if reader.Name() == writer.Name() || slices.Contains(reader.Aliases(), writer.FullName()) {
		return false
	}
	base, next := e.baseNew(reader, writer)
	e.addInType(path, "%s renamed from %s to %s without an alias naming %s", reader.Type(),
		base.(avro.NamedSchema).FullName(), next.(avro.NamedSchema).FullName(), writer.FullName())
	return true
}

// record explains each reader field that the writer lacks without a default,
// or whose type the reader cannot read.
func (e *compatExplainer) record(reader, writer *avro.RecordSchema, path []string) {
	if e.renamed(reader, writer, path) {
		return
	}
	for _, rf := range reader.Fields() {
		p := append(slices.Clip(path), rf.Name())
		wf := compatWriterField(writer, rf)
		switch {
		case wf == nil && !rf.HasDefault():
			e.missing(p)
		case wf != nil && e.fails(rf.Type(), wf.Type()):
			e.walk(rf.Type(), wf.Type(), p)
		}
	}
}

// compatWriterField finds the writer's field for rf: same name, or a name among
// rf's aliases.
func compatWriterField(writer *avro.RecordSchema, rf *avro.Field) *avro.Field {
	for _, wf := range writer.Fields() {
		if wf.Name() == rf.Name() || slices.Contains(rf.Aliases(), wf.Name()) {
			return wf
		}
	}
	return nil
}

// missing reports a field the reader needs that the writer does not write.
func (e *compatExplainer) missing(path []string) {
	if e.dir == compatForward {
		e.add(path, "removed, but it has no default in %s", e.baseLabel())
		return
	}
	e.add(path, "added without a default")
}

// enum explains writer symbols the reader lacks when it has no default.
func (e *compatExplainer) enum(reader, writer *avro.EnumSchema, path []string) {
	if e.renamed(reader, writer, path) || reader.HasDefault() {
		return
	}
	lost := compatMissingSymbols(reader, writer)
	switch {
	case len(lost) == 0:
	case e.dir == compatForward:
		e.addInType(path, "enum %s gained %s, and the enum has no default in %s", reader.FullName(), compatSymbols(lost), e.baseLabel())
	default:
		e.addInType(path, "enum %s lost %s, and the enum has no default", reader.FullName(), compatSymbols(lost))
	}
}

// compatMissingSymbols lists the writer's symbols the reader lacks.
func compatMissingSymbols(reader, writer *avro.EnumSchema) []string {
	var lost []string
	for _, s := range writer.Symbols() {
		if !slices.Contains(reader.Symbols(), s) {
			lost = append(lost, s)
		}
	}
	return lost
}

func compatSymbols(s []string) string {
	if len(s) == 1 {
		return "symbol " + s[0]
	}
	return "symbols " + strings.Join(s, ", ")
}

// fixed explains a renamed or resized fixed type.
func (e *compatExplainer) fixed(reader, writer *avro.FixedSchema, path []string) {
	if e.renamed(reader, writer, path) || reader.Size() == writer.Size() {
		return
	}
	base, next := e.baseNew(reader, writer)
	e.addInType(path, "fixed %s changed size from %d to %d bytes", reader.FullName(),
		base.(*avro.FixedSchema).Size(), next.(*avro.FixedSchema).Size())
}

// unions explains each writer branch no reader branch reads.
func (e *compatExplainer) unions(reader, writer *avro.UnionSchema, path []string) {
	for _, b := range writer.Types() {
		if !e.fails(reader, b) {
			continue
		}
		if rb := compatSameType(reader.Types(), compatDeref(b)); rb != nil {
			e.walk(rb, b, path)
			continue
		}
		if e.dir == compatForward {
			e.add(path, "union gained branch %s, which readers built from %s do not have", compatTypeName(b), e.baseLabel())
			continue
		}
		e.add(path, "union lost branch %s, which writers built from %s may still send", compatTypeName(b), e.baseLabel())
	}
}
