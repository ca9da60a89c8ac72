package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// JSON forms: encoding/json writes a time.Duration in nanoseconds and a
// *big.Rat as "617/50", where the contract says time-* travel as integers of
// their unit and decimals as strings. A record with such fields (directly, or
// in an optional, array or map) gets MarshalJSON and UnmarshalJSON methods
// over a shadow struct that embeds the record and overrides those fields with
// acemqimpl.JSONValue bindings; the runtime's JSONForm does the work.

// jsonForm is the acemqimpl.JSONForm of a value of type t, or nil when
// encoding/json's own form is the contract's. A named record or a union
// carries its own methods, so neither needs one here.
func jsonForm(t *Type) *jen.Statement {
	switch t.Kind {
	case Primitive:
		return unitForm(t.Prim)
	case Decimal:
		return impl("JSONDecimalForm").Call(jen.Lit(t.Precision), jen.Lit(t.Scale))
	case Optional, Array, Map:
		return containerForm(t)
	}
	return nil
}

func unitForm(prim string) *jen.Statement {
	switch prim {
	case "time-millis":
		return impl("JSONMillisForm").Call()
	case "time-micros":
		return impl("JSONMicrosForm").Call()
	}
	return nil
}

// containerForm wraps the form of t's element; an optional array or map is
// the nil-able slice or map itself, so it takes the element's form as is.
func containerForm(t *Type) *jen.Statement {
	elem := jsonForm(t.Elem)
	if elem == nil {
		return nil
	}
	if t.Kind == Optional && (t.Elem.Kind == Array || t.Elem.Kind == Map) {
		return elem
	}
	wrap := map[TypeKind]string{Optional: "JSONOptional", Array: "JSONArray", Map: "JSONMap"}[t.Kind]
	return impl(wrap).Call(elem)
}

// jsonMethods writes MarshalJSON for a record with form fields and
// UnmarshalJSON for one with form or union fields.
func (e *emitter) jsonMethods(rec *Record) {
	forms, unions := formFields(rec), unionFields(rec)
	if len(forms) > 0 {
		e.marshalForms(rec, forms)
	}
	switch {
	case len(unions) > 0:
		e.unmarshalRecord(rec, unions, forms)
	case len(forms) > 0:
		e.unmarshalForms(rec, forms)
	}
}

// marshalForms writes MarshalJSON over a copy of the record whose form
// fields are bound to their forms. Every field is listed, in the record's
// order: an embedded record would put the overriding fields last.
func (e *emitter) marshalForms(rec *Record, forms []*Field) {
	e.comment((fmt.Sprintf("MarshalJSON writes %s as encoding/json does, except for the contract's JSON forms: %s", rec.Name, formsDoc(forms))), "", "")
	e.f.Func().Params(jen.Id("m").Id(rec.Name)).Id("MarshalJSON").Params().Parens(jen.List(jen.Index().Byte(), jen.Error())).Block(
		jen.Return(jen.Qual(jsonPath, "Marshal").Call(e.orderedShadow(rec))))
}

// orderedShadow is a struct literal with every field of rec: a form field
// bound to m's, any other a copy of m's.
func (e *emitter) orderedShadow(rec *Record) *jen.Statement {
	var values []jen.Code
	typ := jen.StructFunc(func(g *jen.Group) {
		for _, f := range rec.Fields {
			field, value := e.goType(f.Type), jen.Id("m").Dot(f.GoName)
			if form := jsonForm(f.Type); form != nil {
				field, value = impl("JSONValue").Types(e.goType(f.Type)), form.Dot("Bind").Call(jen.Op("&").Id("m").Dot(f.GoName))
			}
			g.Id(f.GoName).Add(field).Tag(map[string]string{"json": f.Name})
			values = append(values, jen.Id(f.GoName).Op(":").Add(value))
		}
	})
	return typ.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, values...)
}

// unmarshalForms writes UnmarshalJSON into a shadow of the record.
func (e *emitter) unmarshalForms(rec *Record, forms []*Field) {
	e.comment((fmt.Sprintf("UnmarshalJSON reads %s as encoding/json does, except for the contract's JSON forms: %s", rec.Name, formsDoc(forms))), "", "")
	e.f.Func().Params(jen.Id("m").Op("*").Id(rec.Name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Type().Id("plain").Id(rec.Name),
		jen.Return(jen.Qual(jsonPath, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Add(
			e.shadow(forms, nil, jen.Op("*").Id("plain"), jen.Parens(jen.Op("*").Id("plain")).Parens(jen.Id("m")))))))
}

// shadow is a struct literal embedding the record as plain (of type embed,
// set to value) whose form fields are bound to m's and whose union fields
// are raw JSON.
func (e *emitter) shadow(forms, unions []*Field, embed, value jen.Code) *jen.Statement {
	if len(forms) == 0 {
		return e.shadowType(forms, unions, embed).Values(jen.Dict{jen.Id("plain"): value})
	}
	values := []jen.Code{jen.Id("plain").Op(":").Add(value)}
	for _, f := range forms {
		values = append(values, jen.Id(f.GoName).Op(":").Add(jsonForm(f.Type)).Dot("Bind").Call(jen.Op("&").Id("m").Dot(f.GoName)))
	}
	return e.shadowType(forms, unions, embed).Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, values...)
}

func (e *emitter) shadowType(forms, unions []*Field, embed jen.Code) *jen.Statement {
	return jen.StructFunc(func(g *jen.Group) {
		g.Add(embed)
		for _, f := range unions {
			g.Id(f.GoName).Qual(jsonPath, "RawMessage").Tag(map[string]string{"json": f.Name})
		}
		for _, f := range forms {
			g.Id(f.GoName).Add(impl("JSONValue").Types(e.goType(f.Type))).Tag(map[string]string{"json": f.Name})
		}
	})
}

// formsDoc says how the form fields travel, for the methods' doc comments.
func formsDoc(forms []*Field) string {
	var millis, micros, decimals bool
	for _, f := range forms {
		k := leafOf(f.Type)
		millis, micros, decimals = millis || k.Prim == "time-millis", micros || k.Prim == "time-micros", decimals || k.Kind == Decimal
	}
	var parts []string
	if millis {
		parts = append(parts, "time-millis as integer milliseconds")
	}
	if micros {
		parts = append(parts, "time-micros as integer microseconds")
	}
	if decimals {
		parts = append(parts, "decimals as strings with their scale's digits (\"12.34\")")
	}
	return joinAnd(parts) + "."
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	out := parts[0]
	for _, p := range parts[1 : len(parts)-1] {
		out += ", " + p
	}
	return fmt.Sprintf("%s and %s", out, parts[len(parts)-1])
}
