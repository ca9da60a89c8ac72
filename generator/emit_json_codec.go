package generator

import (
	"encoding/json"
	"strings"

	"github.com/dave/jennifer/jen"
)

// The generated JSON codec: every record gets AppendJSON, writing byte for
// byte what encoding/json writes for it, and UnmarshalAcemqJSON, reading what
// json.Unmarshal reads, both without reflection. The generated code is one
// call per field into runtime/acemqimpl/jsonimpl, which holds the policy;
// acemq.JSONCodec picks the methods up.

const jsonimplPath = "github.com/acemq/acemq-gen/runtime/acemqimpl/jsonimpl"

// jsonCodecMethods are the methods jsonCodec declares on a record.
var jsonCodecMethods = []string{"AppendJSON", "UnmarshalAcemqJSON", "readJSONField"}

func jsonimpl(name string) *jen.Statement { return jen.Qual(jsonimplPath, name) }

// fieldJSON is how one field is written and read: the jsonimpl Put and
// Get functions and the form they take.
type fieldJSON struct {
	put, get string
	form     jen.Code
}

// jsonCodec writes the record's AppendJSON, UnmarshalAcemqJSON and the
// field reader the latter runs.
func (e *emitter) jsonCodec(rec *recordModel) {
	e.f.ImportName(jsonimplPath, "jsonimpl")
	codecs := e.fieldCodecs(rec)
	e.commentf("AppendJSON appends the JSON of m to b: byte for byte what encoding/json writes for m, without reflection.")
	e.f.Func().Params(jen.Id("m").Id(rec.Name)).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Parens(jen.List(jen.Index().Byte(), jen.Error())).BlockFunc(func(g *jen.Group) {
		g.Id("w").Op(":=").Add(jsonimpl("Object")).Call(jen.Id("b"))
		for i, f := range rec.Fields {
			g.Add(jsonimpl(codecs[i].put)).Call(jen.Op("&").Id("w"), jsonKey(f.Name, i), jen.Id("m").Dot(f.GoName), codecs[i].form)
		}
		g.Return(jen.Id("w").Dot("Close").Call())
	})
	e.commentf("UnmarshalAcemqJSON reads data into m as json.Unmarshal does, with the same result; the canonical shape without reflection, anything else through encoding/json.")
	args := []jen.Code{jen.Id("data"), jen.Id("m"), jen.Parens(jen.Op("*").Id(rec.Name)).Dot("readJSONField")}
	e.f.Func().Params(jen.Id("m").Op("*").Id(rec.Name)).Id("UnmarshalAcemqJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Return(jsonimpl("Decode").Call(append(args, requiredUnions(rec)...)...)))
	e.commentf("readJSONField reads the field of %s named key and returns its index, or -1.", rec.Name)
	e.f.Func().Params(jen.Id("m").Op("*").Id(rec.Name)).Id("readJSONField").Params(jen.Id("r").Add(jsonimpl("Reader")), jen.Id("key").Index().Byte()).Parens(jen.List(jsonimpl("Reader"), jen.Int())).Block(
		jen.Switch(jen.String().Parens(jen.Id("key"))).BlockFunc(func(g *jen.Group) {
			for i, f := range rec.Fields {
				g.Case(jen.Lit(f.Name)).Block(jen.Return(jsonimpl(codecs[i].get).Call(jen.Id("r"), jen.Lit(i), jen.Op("&").Id("m").Dot(f.GoName), codecs[i].form)))
			}
		}),
		jen.Return(jen.Id("r"), jen.Lit(-1)))
}

// fieldCodecs are the codecs of rec's fields. A form built by a call that
// allocates (a contract JSON form, a union, a nested container) becomes a
// package variable, built once, declared here.
func (e *emitter) fieldCodecs(rec *recordModel) []fieldJSON {
	var out []fieldJSON
	var vars []jen.Code
	for _, f := range rec.Fields {
		c := e.fieldCodec(f)
		if compositeJSONField(f.Type, e.dom) {
			name := jsonFormVar(rec, f)
			vars = append(vars, jen.Id(name).Op("=").Add(c.form))
			c.form = jen.Id(name)
		}
		out = append(out, c)
	}
	if len(vars) > 0 {
		e.commentf("The JSON forms of %s's fields that take one, built once.", rec.Name)
		e.f.Var().Defs(vars...)
	}
	return out
}

// branchJSON writes AppendJSON on a union's branch: {"<branch>": value},
// what its MarshalJSON writes, without reflection.
func (e *emitter) branchJSON(b *typ, name string) {
	form := e.jsonValueForm(b)
	if b.Kind == namedKind {
		form = e.namedForm(b.Record) // no closure per call for a record of this package
	}
	e.commentf("AppendJSON appends {%q: value}, as MarshalJSON writes it, without reflection.", branchKey(b))
	e.f.Func().Params(jen.Id("v").Id(name)).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Parens(jen.List(jen.Index().Byte(), jen.Error())).Block(
		jen.Return(jsonimpl("Branch").Call(jen.Id("b"), rawLit("{"+jsonName(branchKey(b))+":"), jen.Id("v").Dot("Value"), form)))
}

// requiredUnions are the indexes of the fields that must be present: a
// union without null, which the reflective path refuses when absent.
func requiredUnions(rec *recordModel) []jen.Code {
	var out []jen.Code
	for i, f := range rec.Fields {
		if f.Type.Kind == unionKind && !f.Type.Nullable {
			out = append(out, jen.Lit(i))
		}
	}
	return out
}

// jsonKey is the JSON a field starts with, `"name":`, after a comma for all
// but the first, escaped as encoding/json escapes it.
func jsonKey(name string, i int) jen.Code {
	key := jsonName(name) + ":"
	if i > 0 {
		key = "," + key
	}
	return rawLit(key)
}

// jsonName is name as encoding/json writes a key, quoted and escaped.
func jsonName(name string) string {
	quoted, _ := json.Marshal(name)
	return string(quoted)
}

// rawLit is a Go string literal of s, raw where s allows it.
func rawLit(s string) jen.Code {
	if strings.Contains(s, "`") {
		return jen.Lit(s)
	}
	return jen.Op("`" + s + "`")
}

// fieldCodec is how a field is written and read: the form is the element's
// for a field that is one optional, array or map.
func (e *emitter) fieldCodec(f *field) fieldJSON {
	t := f.Type
	switch {
	case hasJSONForm(t):
		return fieldJSON{"Put", "Get", jsonimpl("Via").Call(jsonForm(t))}
	case t.Kind == unionKind:
		return fieldJSON{"Put", "Get", jsonimpl("Union").Call(jen.Id(unionJSONName(t)).Dot("Decode"))}
	case leafOf(t).Kind == namedKind && isBound(leafOf(t).Record):
		// the whole field, so encoding/json sees an array's elements and an
		// optional's value addressable, as it does in the record
		return fieldJSON{"Put", "Get", jsonimpl("Reflect").Types(e.goType(t)).Call()}
	case t.Kind == optionalKind && (t.Elem.Kind == arrayKind || t.Elem.Kind == mapKind):
		t = t.Elem
	}
	suffix, elem := fieldContainer(t)
	return fieldJSON{"Put" + suffix, "Get" + suffix, e.jsonValueForm(elem)}
}

// fieldContainer is the Put/Get suffix of a field of type t and the type
// its form is of: a field that is one optional, array or map puts its
// element.
func fieldContainer(t *typ) (string, *typ) {
	if t.Kind == optionalKind && (t.Elem.Kind == arrayKind || t.Elem.Kind == mapKind) {
		t = t.Elem
	}
	switch t.Kind {
	case optionalKind, arrayKind, mapKind:
		return map[typeKind]string{optionalKind: "Opt", arrayKind: "Array", mapKind: "Map"}[t.Kind], t.Elem
	}
	return "", t
}

// compositeJSONField reports whether the form of a field of type t, in
// the package of dom, is built by a call that allocates (a contract JSON
// form, a union, a nested container, a record of the package), so it is a
// package variable, built once.
func compositeJSONField(t *typ, dom *domain) bool {
	if t == nil { // a field whose type did not resolve: the contract is being refused
		return false
	}
	if hasJSONForm(t) || t.Kind == unionKind || localRecord(leafOf(t), dom) {
		return true
	}
	_, elem := fieldContainer(t)
	return elem.Kind == optionalKind || elem.Kind == arrayKind || elem.Kind == mapKind
}

// jsonValueForm is the jsonimpl.Form of a value of type t.
func (e *emitter) jsonValueForm(t *typ) jen.Code {
	if hasJSONForm(t) {
		return jsonimpl("Via").Call(jsonForm(t))
	}
	switch t.Kind {
	case primitiveKind:
		return jsonimpl(primitiveForms[t.Prim])
	case namedKind:
		if localRecord(t, e.dom) {
			return jsonimpl("Nested").Call(append([]jen.Code{jen.Parens(jen.Op("*").Id(t.Record.Name)).Dot("readJSONField")}, requiredUnions(t.Record)...)...)
		}
		return e.namedForm(t.Record)
	case optionalKind:
		if t.Elem.Kind == arrayKind || t.Elem.Kind == mapKind {
			return e.jsonValueForm(t.Elem)
		}
		return jsonimpl("Optional").Call(e.jsonValueForm(t.Elem))
	case arrayKind, mapKind:
		return jsonimpl(map[typeKind]string{arrayKind: "Array", mapKind: "Map"}[t.Kind]).Call(e.jsonValueForm(t.Elem))
	}
	return jsonimpl("Reflect").Types(e.goType(t)).Call()
}

// localRecord reports whether t is a record the package of dom declares,
// whose field reader a nested value's form calls directly.
func localRecord(t *typ, dom *domain) bool {
	return t.Kind == namedKind && !isBound(t.Record) && t.Record.Shape == recordShape &&
		(t.Record.Owner == nil || t.Record.Owner == dom)
}

// namedForm is the form of a named type: encoding/json's own for a bound Go
// type, which the generator knows nothing of.
func (e *emitter) namedForm(rec *recordModel) jen.Code {
	name := map[shape]string{enumShape: "Enum", fixedShape: "Text", recordShape: "Record"}[rec.Shape]
	if isBound(rec) || name == "" {
		name = "Reflect"
	}
	return jsonimpl(name).Types(e.typeName(rec)).Call()
}

// primitiveForms are the jsonimpl forms of the contract's primitives; a
// time-* is a JSON form and never looked up here.
var primitiveForms = map[string]string{
	"string": "String", "uuid": "String", "boolean": "Bool", "int": "Int32", "long": "Int64",
	"float": "Float32", "double": "Float64", "bytes": "Bytes",
	"date": "Time", "timestamp-millis": "Time", "timestamp-micros": "Time",
}
