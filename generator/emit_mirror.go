package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// Avro mirrors: hamba/avro writes a union from a pointer implementing its
// UnionConverter, never from an interface, so a payload with unions travels
// as Avro through an unexported mirror of each record on the way to a union
// (<record>Avro), whose union fields are *avro.Union converters listing
// their branches with <union>Avro. acemqimpl.MappedCodec swaps payload and
// mirror around the Avro codec.

// unionRelated reports whether a field of type t differs in the mirror.
func unionRelated(t *typ) bool {
	switch t.Kind {
	case unionKind:
		return true
	case namedKind:
		return isUnionRecord(t.Record)
	case optionalKind, arrayKind, mapKind:
		return unionRelated(t.Elem)
	}
	return false
}

// needsMirrors reports whether an Avro codec of the domain carries a union.
func (e *emitter) needsMirrors() bool {
	for _, m := range payloads(e.dom) {
		if isAvro(m.Codec) && isUnionRecord(m.Record) {
			return true
		}
	}
	return false
}

// mirrorType is the type of a field in a mirror.
func (e *emitter) mirrorType(t *typ) jen.Code {
	if !unionRelated(t) {
		return e.goType(t)
	}
	switch t.Kind {
	case unionKind:
		return jen.Op("*").Qual(avroPath, "Union").Types(jen.Id(t.Iface), jen.Id(unionMirror(t)))
	case namedKind:
		return jen.Id(mirrorName(t.Record))
	case arrayKind:
		return jen.Index().Add(e.mirrorType(t.Elem))
	case mapKind:
		return jen.Map(jen.String()).Add(e.mirrorType(t.Elem))
	}
	if t.Elem.Kind == arrayKind || t.Elem.Kind == mapKind {
		return e.mirrorType(t.Elem)
	}
	return jen.Op("*").Add(e.mirrorType(t.Elem))
}

// convert is x converted to its mirror (to) or back (from).
func (e *emitter) convert(x jen.Code, t *typ, to bool) jen.Code {
	if !unionRelated(t) {
		return x
	}
	switch t.Kind {
	case unionKind:
		if to {
			return jen.Qual(avroPath, "NewUnion").Types(jen.Id(unionMirror(t))).Call(x)
		}
		return jen.Add(x).Dot("Value").Call()
	case namedKind:
		return jen.Add(x).Dot(map[bool]string{true: toAvroMethod, false: fromAvroMethod}[to]).Call()
	case optionalKind:
		if t.Elem.Kind == arrayKind || t.Elem.Kind == mapKind {
			return e.convert(x, t.Elem, to)
		}
		return impl("MirrorPtr").Call(x, e.convertFunc(t.Elem, to))
	case arrayKind:
		return impl("MirrorSlice").Call(x, e.convertFunc(t.Elem, to))
	}
	return impl("MirrorMap").Call(x, e.convertFunc(t.Elem, to))
}

// convertFunc is a function converting one value of type t.
func (e *emitter) convertFunc(t *typ, to bool) jen.Code {
	from, into := e.goType(t), e.mirrorType(t)
	if !to {
		from, into = into, from
	}
	return jen.Func().Params(jen.Id("v").Add(from)).Add(into).Block(jen.Return(e.convert(jen.Id("v"), t, to)))
}

// mirrors writes the mirror of every union record and the converters of
// their unions, when an Avro codec of the domain needs them.
func (e *emitter) mirrors() {
	if !e.needsMirrors() {
		return
	}
	for _, rec := range allRecords(e.dom) {
		if isUnionRecord(rec) {
			e.mirror(rec)
		}
		for _, f := range unionFields(rec) {
			e.unionConverter(rec, f)
		}
	}
}

func (e *emitter) mirror(rec *recordModel) {
	name := mirrorName(rec)
	e.commentf("%s is %s as hamba/avro reads and writes it: each union a converter.", name, rec.Name)
	e.f.Type().Id(name).StructFunc(func(g *jen.Group) {
		for _, f := range rec.Fields {
			g.Id(f.GoName).Add(e.mirrorType(f.Type)).Tag(map[string]string{"avro": f.Name})
		}
	})
	e.commentf("toAvro returns m's Avro mirror.")
	e.f.Func().Params(jen.Id("m").Id(rec.Name)).Id(toAvroMethod).Params().Id(name).Block(
		jen.Return(jen.Id(name).Values(e.fieldValues(rec, true))))
	e.commentf("fromAvro returns the value the mirror holds.")
	e.f.Func().Params(jen.Id("m").Id(name)).Id(fromAvroMethod).Params().Id(rec.Name).Block(
		jen.Return(jen.Id(rec.Name).Values(e.fieldValues(rec, false))))
}

func (e *emitter) fieldValues(rec *recordModel, to bool) jen.Dict {
	d := jen.Dict{}
	for _, f := range rec.Fields {
		d[jen.Id(f.GoName)] = e.convert(jen.Id("m").Dot(f.GoName), f.Type, to)
	}
	return d
}

// unionConverter writes <union>Avro, which lists the branches of a union for
// avro.Union, and the list itself, <union>Branches.
func (e *emitter) unionConverter(rec *recordModel, f *field) {
	u, name, list := f.Type, unionMirror(f.Type), unionBranchesName(f.Type)
	of := jen.Qual(avroPath, "UnionOf").Types(jen.Id(u.Iface))
	e.commentf("%s lists the branches of %s for avro.Union, which carries it through hamba/avro.", name, u.Iface)
	e.f.Type().Id(name).Struct()
	e.commentf("Union returns %s.", list)
	e.f.Func().Params(jen.Id(name)).Id("Union").Params().Op("*").Add(of).Block(jen.Return(jen.Id(list)))
	e.commentf("%s are the branches of %s, in the contract's order.", list, u.Iface)
	e.f.Var().Id(list).Op("=").Op("&").Add(of).Values(jen.Dict{
		jen.Id("Name"):  jen.Lit(u.Iface),
		jen.Id("Field"): jen.Lit(fmt.Sprintf("field %s of %s", f.Name, rec.Name)),
		jen.Id("Branches"): jen.Index().Qual(avroPath, "Branch").Types(jen.Id(u.Iface)).ValuesFunc(func(g *jen.Group) {
			for _, b := range u.Branches {
				g.Add(e.avroBranch(u, b))
			}
		}),
	})
}

// avroBranch is one branch of u for avro.UnionOf: a primitive (or decimal)
// hamba/avro may decode alone, or a record, enum or fixed it decodes without
// its Go type and the branch reads back with the branch's schema.
func (e *emitter) avroBranch(u, b *typ) jen.Code {
	types := jen.Types(jen.Id(u.Iface), jen.Id(branchTypeName(u, b)))
	if b.Kind != namedKind {
		return jen.Qual(avroPath, "Prim").Add(types).Call(jen.Lit(hambaBranch(b)))
	}
	if !isUnionRecord(b.Record) {
		return jen.Qual(avroPath, "Named").Add(types).Call(jen.Lit(hambaBranch(b)), e.branchSchema(b))
	}
	return jen.Qual(avroPath, "Mirrored").Add(types).Call(jen.Lit(hambaBranch(b)), e.branchSchema(b),
		e.typeName(b.Record).Dot(toAvroMethod), jen.Id(mirrorName(b.Record)).Dot(fromAvroMethod))
}

// branchSchema is the Avro schema of a record, enum or fixed branch: its
// AvroSchema, or for a bound type (which has no schema methods) the schema
// written in place.
func (e *emitter) branchSchema(b *typ) jen.Code {
	if isBound(b.Record) {
		return stringLit(b.Record.Avro.Canonical)
	}
	zero := e.typeName(b.Record).Values()
	if b.Record.Shape == enumShape {
		zero = e.typeName(b.Record).Call(jen.Lit(""))
	}
	return zero.Dot("AvroSchema").Call()
}

// hambaBranch is the name hamba/avro gives a union branch: Avro's, with the
// logical type after a dot (long.timestamp-millis, bytes.decimal).
func hambaBranch(b *typ) string {
	if b.Kind == decimalKind {
		return "bytes.decimal"
	}
	if l, ok := logical[b.Prim]; ok && b.Kind == primitiveKind {
		return l[0] + "." + l[1]
	}
	return branchKey(b)
}
