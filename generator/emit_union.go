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

// readBranch reads raw into v.Value, through its form when it has one.
func readBranch(b *typ) jen.Code {
	if form := jsonForm(b); form != nil {
		return jen.Err().Op("=").Add(form).Dot("Bind").Call(jen.Op("&").Id("v").Dot("Value")).Dot("UnmarshalJSON").Call(jen.Id("raw"))
	}
	return jen.Err().Op("=").Qual(jsonPath, "Unmarshal").Call(jen.Id("raw"), jen.Op("&").Id("v").Dot("Value"))
}

// decodeUnion writes decode<Iface>, which reads one branch by its name.
func (e *emitter) decodeUnion(rec *recordModel, f *field) {
	u := f.Type
	fn := decodeUnionName(u)
	e.commentf("%s reads the JSON of %s.", fn, u.Iface)
	e.f.Func().Id(fn).Params(jen.Id("data").Qual(jsonPath, "RawMessage")).Parens(jen.List(jen.Id(u.Iface), jen.Error())).BlockFunc(func(g *jen.Group) {
		g.List(jen.Id("name"), jen.Id("raw"), jen.Err()).Op(":=").Add(impl("UnionBranch")).Call(jen.Id("data"))
		g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
		null := jen.Return(jen.Nil(), jen.Qual(errorsPath, "New").Call(jen.Lit(fmt.Sprintf("acemq: field %s of %s needs one of its union's branches; null is not one", f.Name, rec.Name))))
		if u.Nullable {
			null = jen.Return(jen.Nil(), jen.Nil())
		}
		g.If(jen.Id("name").Op("==").Lit("")).Block(null)
		g.Switch(jen.Id("name")).BlockFunc(func(sg *jen.Group) {
			for _, b := range u.Branches {
				name := branchTypeName(u, b)
				sg.Case(jen.Lit(branchKey(b))).Block(
					jen.Var().Id("v").Id(name),
					readBranch(b),
					jen.Return(jen.Id("v"), jen.Err()))
			}
		})
		g.Return(jen.Nil(), jen.Qual(fmtPath, "Errorf").Call(jen.Lit(fmt.Sprintf("acemq: %%q is not a branch of %s (field %s of %s)", u.Iface, f.Name, rec.Name)), jen.Id("name")))
	})
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
			g.If(jen.List(jen.Id("m").Dot(f.GoName), jen.Err()).Op("=").Id(decodeUnionName(f.Type)).Call(jen.Id("aux").Dot(f.GoName)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		}
		g.Return(jen.Nil())
	})
}
