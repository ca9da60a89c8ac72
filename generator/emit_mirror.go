package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// Avro mirrors: hamba/avro writes a union from a pointer implementing its
// UnionConverter, never from an interface, so a payload with unions travels
// as Avro through an unexported mirror of each record on the way to a union
// (<record>Avro), whose union fields are pointers to <union>Avro converters.
// acemqimpl.MappedCodec swaps payload and mirror around the Avro codec.

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
	for _, m := range e.dom.Messages {
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
		return jen.Op("*").Id(unionMirror(t))
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
			return jen.Id(toUnionAvroName(t)).Call(x)
		}
		return jen.Add(x).Dot("value").Call()
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

func (e *emitter) unionConverter(rec *recordModel, f *field) {
	u, name := f.Type, unionMirror(f.Type)
	e.commentf("%s carries %s through hamba/avro (an avro.UnionConverter).", name, u.Iface)
	e.f.Type().Id(name).Struct(jen.Id("v").Id(u.Iface))
	e.commentf("to%sAvro wraps v; nil stays nil (null).", u.Iface)
	e.f.Func().Id(toUnionAvroName(u)).Params(jen.Id("v").Id(u.Iface)).Op("*").Id(name).Block(
		jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Op("&").Id(name).Values(jen.Id("v"))))
	e.commentf("value returns the union the converter holds; nil for null.")
	e.f.Func().Params(jen.Id("u").Op("*").Id(name)).Id("value").Params().Id(u.Iface).Block(
		jen.If(jen.Id("u").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Id("u").Dot("v")))
	e.toAny(u, name)
	e.fromAny(rec, f, name)
}

func (e *emitter) toAny(u *typ, name string) {
	e.commentf("ToAny returns the branch as {\"<branch>\": value}, how hamba/avro writes a union from a map.")
	e.f.Func().Params(jen.Id("u").Op("*").Id(name)).Id("ToAny").Params().Parens(jen.List(jen.Any(), jen.Error())).Block(
		jen.Switch(jen.Id("b").Op(":=").Id("u").Dot("v").Assert(jen.Type())).BlockFunc(func(g *jen.Group) {
			for _, b := range u.Branches {
				g.Case(jen.Id(branchTypeName(u, b))).Block(jen.Return(
					jen.Op("&").Map(jen.String()).Any().Values(jen.Dict{jen.Lit(hambaBranch(b)): e.convert(jen.Id("b").Dot("Value"), b, true)}), jen.Nil()))
			}
		}),
		jen.Return(jen.Nil(), jen.Qual(fmtPath, "Errorf").Call(jen.Lit(fmt.Sprintf("acemq: %%T is not a branch of %s", u.Iface)), jen.Id("u").Dot("v"))))
}

// fromAny reads what hamba/avro decoded: {"<branch>": value} or, when every
// branch is a primitive, the value alone.
func (e *emitter) fromAny(rec *recordModel, f *field, name string) {
	u := f.Type
	e.commentf("FromAny sets the union from what hamba/avro decoded: {\"<branch>\": value}, or the value alone when every branch is a primitive.")
	e.f.Func().Params(jen.Id("u").Op("*").Id(name)).Id("FromAny").Params(jen.Id("p").Any()).Error().BlockFunc(func(g *jen.Group) {
		g.List(jen.Id("name"), jen.Id("val")).Op(":=").Qual(avroPath, "UnionBranch").Call(jen.Id("p"))
		for _, b := range u.Branches {
			e.fromAnyBranch(g, u, b)
		}
		g.Return(jen.Qual(fmtPath, "Errorf").Call(jen.Lit(fmt.Sprintf("acemq: field %s of %s: no branch of %s reads %%q (%%T)", f.Name, rec.Name, u.Iface)), jen.Id("name"), jen.Id("val")))
	})
}

// namedBranch reads a record, enum or fixed branch by writing the generic
// value hamba/avro decoded with the branch's schema and reading it back into
// the Go type (or its mirror).
func (e *emitter) namedBranch(b *typ, wrapper string) []jen.Code {
	zero := e.typeName(b.Record).Values()
	if b.Record.Shape == enumShape {
		zero = e.typeName(b.Record).Call(jen.Lit(""))
	}
	var schema jen.Code = zero.Dot("AvroSchema").Call()
	if isBound(b.Record) { // a bound type has no schema methods: the schema is written in place
		schema = stringLit(b.Record.Avro.Canonical)
	}
	if !isUnionRecord(b.Record) {
		return []jen.Code{jen.Var().Id("v").Id(wrapper),
			jen.Err().Op(":=").Qual(avroPath, "Into").Call(jen.Id("val"), schema, jen.Op("&").Id("v").Dot("Value")),
			jen.Id("u").Dot("v").Op("=").Id("v"),
			jen.Return(jen.Err())}
	}
	return []jen.Code{jen.Var().Id("m").Id(mirrorName(b.Record)),
		jen.Err().Op(":=").Qual(avroPath, "Into").Call(jen.Id("val"), schema, jen.Op("&").Id("m")),
		jen.Id("u").Dot("v").Op("=").Id(wrapper).Values(jen.Dict{jen.Id("Value"): jen.Id("m").Dot(fromAvroMethod).Call()}),
		jen.Return(jen.Err())}
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

// nativeTypes are the Go types hamba/avro decodes a primitive branch into.
var nativeTypes = map[string]jen.Code{"boolean": jen.Bool(), "int": jen.Int(), "long": jen.Int64(), "float": jen.Float32(),
	"double": jen.Float64(), "string": jen.String(), "uuid": jen.String(), "bytes": jen.Index().Byte(),
	"date": jen.Qual(timePath, "Time"), "timestamp-millis": jen.Qual(timePath, "Time"), "timestamp-micros": jen.Qual(timePath, "Time"),
	"time-millis": jen.Qual(timePath, "Duration"), "time-micros": jen.Qual(timePath, "Duration")}

func (e *emitter) fromAnyBranch(g *jen.Group, u *typ, b *typ) {
	wrapper := branchTypeName(u, b)
	if b.Kind == namedKind {
		g.If(jen.Id("name").Op("==").Lit(hambaBranch(b))).Block(e.namedBranch(b, wrapper)...)
		return
	}
	native, value := nativeTypes[b.Prim], jen.Id("x")
	if b.Kind == decimalKind {
		native = jen.Op("*").Qual(bigPath, "Rat")
	} else if b.Prim == "int" {
		value = jen.Int32().Parens(jen.Id("x"))
	}
	g.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Id("val").Assert(native), jen.Id("ok").Op("&&").Parens(
		jen.Id("name").Op("==").Lit("").Op("||").Id("name").Op("==").Lit(hambaBranch(b)))).Block(
		jen.Id("u").Dot("v").Op("=").Id(wrapper).Values(jen.Dict{jen.Id("Value"): value}),
		jen.Return(jen.Nil()))
}
