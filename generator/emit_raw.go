package generator

import "github.com/dave/jennifer/jen"

// rawMethods lets the text and bytes codecs carry a message's single field:
// a text payload is a fmt.Stringer and an encoding.TextMarshaler and
// TextUnmarshaler, a bytes payload an encoding.BinaryMarshaler and
// BinaryUnmarshaler.
func (e *emitter) rawMethods(m *message) {
	switch c, _ := codecNamed(m.Codec); c.raw {
	case "string":
		e.textMethods(m)
	case "bytes":
		e.binaryMethods(m)
	}
}

func (e *emitter) textMethods(m *message) {
	field := jen.Id("m").Dot(m.Record.Fields[0].GoName)
	e.commentf("String returns the text %s carries; the text codec writes it.", m.Name)
	e.f.Func().Params(jen.Id("m").Id(m.Name)).Id("String").Params().String().Block(jen.Return(field.Clone()))
	e.commentf("MarshalText returns the text %s carries.", m.Name)
	e.f.Func().Params(jen.Id("m").Id(m.Name)).Id("MarshalText").Params().Parens(jen.List(jen.Index().Byte(), jen.Error())).Block(
		jen.Return(jen.Index().Byte().Parens(field.Clone()), jen.Nil()))
	e.commentf("UnmarshalText sets the text %s carries.", m.Name)
	e.f.Func().Params(jen.Id("m").Op("*").Id(m.Name)).Id("UnmarshalText").Params(jen.Id("text").Index().Byte()).Error().Block(
		field.Clone().Op("=").String().Parens(jen.Id("text")), jen.Return(jen.Nil()))
}

func (e *emitter) binaryMethods(m *message) {
	field := jen.Id("m").Dot(m.Record.Fields[0].GoName)
	e.commentf("MarshalBinary returns the bytes %s carries; the bytes codec writes them.", m.Name)
	e.f.Func().Params(jen.Id("m").Id(m.Name)).Id("MarshalBinary").Params().Parens(jen.List(jen.Index().Byte(), jen.Error())).Block(
		jen.Return(field.Clone(), jen.Nil()))
	e.commentf("UnmarshalBinary sets the bytes %s carries to a copy of data.", m.Name)
	e.f.Func().Params(jen.Id("m").Op("*").Id(m.Name)).Id("UnmarshalBinary").Params(jen.Id("data").Index().Byte()).Error().Block(
		field.Clone().Op("=").Append(jen.Index().Byte().Values(), jen.Id("data").Op("...")), jen.Return(jen.Nil()))
}
