package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// enum writes a string type, a constant per symbol and Valid.
func (e *emitter) enum(rec *Record, first string) {
	doc := rec.Doc
	if rec.EnumDefault != "" {
		doc = joinDoc(doc, fmt.Sprintf("A reader that does not know a symbol reads %s%s.", rec.Name, GoName(rec.EnumDefault)))
	}
	e.comment(first, doc, rec.Deprecated)
	e.f.Type().Id(rec.Name).String()
	e.commentf("The symbols of %s.", rec.Name)
	e.f.Const().DefsFunc(func(g *jen.Group) {
		for _, s := range rec.Symbols {
			g.Id(enumConst(rec, s)).Id(rec.Name).Op("=").Lit(s)
		}
	})
	e.commentf("Valid reports whether v is one of the symbols of %s.", rec.Name)
	e.f.Func().Params(jen.Id("v").Id(rec.Name)).Id("Valid").Params().Bool().Block(
		jen.Switch(jen.Id("v")).Block(jen.Case(enumConsts(rec)...).Block(jen.Return(jen.True()))),
		jen.Return(jen.False()))
	e.schemaMethods(rec)
}

func enumConsts(rec *Record) []jen.Code {
	var out []jen.Code
	for _, s := range rec.Symbols {
		out = append(out, jen.Id(enumConst(rec, s)))
	}
	return out
}

func joinDoc(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n\n" + b
}

// fixed writes a byte array type that JSON, YAML and TOML write as base64.
func (e *emitter) fixed(rec *Record, first string) {
	e.comment(first, joinDoc(rec.Doc, "JSON, YAML and TOML carry it as base64 text."), rec.Deprecated)
	e.f.Type().Id(rec.Name).Index(jen.Lit(rec.Size)).Byte()
	e.commentf("MarshalText returns v in base64.")
	e.f.Func().Params(jen.Id("v").Id(rec.Name)).Id("MarshalText").Params().Parens(jen.List(jen.Index().Byte(), jen.Error())).Block(
		jen.Return(jen.Index().Byte().Parens(jen.Qual(base64Path, "StdEncoding").Dot("EncodeToString").Call(jen.Id("v").Index(jen.Op(":")))), jen.Nil()))
	e.commentf("UnmarshalText reads %d bytes in base64 into v.", rec.Size)
	e.f.Func().Params(jen.Id("v").Op("*").Id(rec.Name)).Id("UnmarshalText").Params(jen.Id("text").Index().Byte()).Error().Block(
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual(base64Path, "StdEncoding").Dot("DecodeString").Call(jen.String().Parens(jen.Id("text"))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(fmtPath, "Errorf").Call(jen.Lit(fmt.Sprintf("acemq: %s: %%w", rec.Name)), jen.Err()))),
		jen.If(jen.Len(jen.Id("b")).Op("!=").Len(jen.Id("v"))).Block(jen.Return(jen.Qual(fmtPath, "Errorf").Call(
			jen.Lit(fmt.Sprintf("acemq: %s holds %d bytes, not %%d", rec.Name, rec.Size)), jen.Len(jen.Id("b"))))),
		jen.Copy(jen.Id("v").Index(jen.Op(":")), jen.Id("b")),
		jen.Return(jen.Nil()))
	e.schemaMethods(rec)
}
