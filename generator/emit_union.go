package generator

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
)

// unions writes, for a record with union fields, each union's sealed
// interface and its branch types; jsonMethods writes the record's UnmarshalJSON.
func (e *emitter) unions(rec *recordModel) {
	for _, f := range unionFields(rec) {
		e.union(rec, f)
	}
}

func (e *emitter) union(rec *recordModel, f *field) {
	u := f.Type
	var names []string
	for _, b := range u.Branches {
		names = append(names, branchTypeName(u, b))
	}
	null := ""
	if u.Nullable {
		null = " A nil value is null."
	}
	e.comment(fmt.Sprintf("%s is the union of field %s of %s: one of\n%s.%s\nJSON carries it as Avro's JSON encoding does: {\"<branch>\": value}.", u.Iface, f.Name, rec.Name, strings.Join(names, ", "), null), "", "")
	e.f.Type().Id(u.Iface).Interface(jen.Id(sealName(u)).Params())
	e.f.Line()
	for _, b := range u.Branches {
		e.branch(u, b)
	}
	e.decodeUnion(rec, f)
}

func (e *emitter) branch(u *typ, b *typ) {
	name, key := branchTypeName(u, b), branchKey(b)
	e.commentf("%s is the %s branch of %s.", name, key, u.Iface)
	e.f.Type().Id(name).Struct(jen.Id("Value").Add(e.goType(b)))
	e.commentf("is%s seals %s to its branches.", u.Iface, u.Iface)
	e.f.Func().Params(jen.Id(name)).Id(sealName(u)).Params().Block()
	e.commentf("MarshalJSON writes {%q: value}.", key)
	e.f.Func().Params(jen.Id("v").Id(name)).Id("MarshalJSON").Params().Parens(jen.List(jen.Index().Byte(), jen.Error())).Block(
		jen.Return(jen.Qual(jsonPath, "Marshal").Call(jen.Map(jen.String()).Any().Values(jen.Dict{jen.Lit(key): branchValue(b)}))))
	e.branchJSON(b, name)
}

// branchValue is a branch's value as JSON should see it: bound to its form
// when it is a time-* or a decimal.
func branchValue(b *typ) jen.Code {
	if form := jsonForm(b); form != nil {
		return form.Dot("Bind").Call(jen.Op("&").Id("v").Dot("Value"))
	}
	return jen.Id("v").Dot("Value")
}

// decodeUnion writes <union>JSON, the acemqimpl.JSONUnion reading the union
// by its branch's name.
func (e *emitter) decodeUnion(rec *recordModel, f *field) {
	u := f.Type
	name := unionJSONName(u)
	e.commentf("%s reads the JSON of %s.", name, u.Iface)
	d := jen.Dict{
		jen.Id("Name"):  jen.Lit(u.Iface),
		jen.Id("Field"): jen.Lit(fmt.Sprintf("field %s of %s", f.Name, rec.Name)),
		jen.Id("Branches"): jen.Index().Add(impl("JSONBranch")).Types(jen.Id(u.Iface)).ValuesFunc(func(g *jen.Group) {
			for _, b := range u.Branches {
				g.Add(jsonBranch(u, b))
			}
		}),
	}
	if u.Nullable {
		d[jen.Id("Nullable")] = jen.True()
	}
	e.f.Var().Id(name).Op("=").Op("&").Add(impl("JSONUnion")).Types(jen.Id(u.Iface)).Values(d)
}

// jsonBranch is one branch of u for acemqimpl.JSONUnion: read through its
// JSON form when it has one (a time-* or a decimal).
func jsonBranch(u, b *typ) jen.Code {
	types := jen.Types(jen.Id(u.Iface), jen.Id(branchTypeName(u, b)))
	if form := jsonForm(b); form != nil {
		return impl("JSONFormed").Add(types).Call(jen.Lit(branchKey(b)), form)
	}
	return impl("JSONPlain").Add(types).Call(jen.Lit(branchKey(b)))
}

// unmarshalRecord writes UnmarshalJSON for a record with union fields (fs),
// binding its form fields, if any, to their JSON forms.
func (e *emitter) unmarshalRecord(rec *recordModel, fs, forms []*field) {
	doc := fmt.Sprintf("UnmarshalJSON reads %s, each union field by the name of its branch.", rec.Name)
	if len(forms) > 0 {
		doc = (fmt.Sprintf("UnmarshalJSON reads %s, each union field by the name of its branch and the contract's JSON forms: %s", rec.Name, formsDoc(forms)))
	}
	e.comment(doc, "", "")
	e.f.Func().Params(jen.Id("m").Op("*").Id(rec.Name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().BlockFunc(func(g *jen.Group) {
		g.Type().Id("plain").Id(rec.Name)
		g.Id("aux").Op(":=").Add(e.shadow(forms, fs, jen.Op("*").Id("plain"), jen.Parens(jen.Op("*").Id("plain")).Parens(jen.Id("m"))))
		g.If(jen.Err().Op(":=").Qual(jsonPath, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("aux")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		g.Var().Err().Error()
		for _, f := range fs {
			g.If(jen.List(jen.Id("m").Dot(f.GoName), jen.Err()).Op("=").Id(unionJSONName(f.Type)).Dot("Decode").Call(jen.Id("aux").Dot(f.GoName)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		}
		g.Return(jen.Nil())
	})
}
