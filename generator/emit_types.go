package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// constants writes the version guard, the exchange, routing keys and queues.
func (e *emitter) constants() {
	e.comment("The generated code needs version 3 of the acemq runtime; a runtime that "+
		"cannot run it no longer declares the constant, so the mismatch fails to compile: "+
		"regenerate with acemq-gen of the runtime's version.", "", "")
	e.f.Const().Id("_").Op("=").Add(impl("SupportPackageIsVersion3"))
	if e.dom.Library {
		return
	}
	e.commentf("Exchange is the %s domain's topic exchange, where its events and commands travel.", e.dom.Name)
	e.f.Const().Id("Exchange").Op("=").Lit(e.dom.Name)
	if len(e.dom.Messages)+len(e.dom.RPCs) > 0 {
		e.f.Const().DefsFunc(e.messageConstants)
	}
}

func (e *emitter) messageConstants(g *jen.Group) {
	for _, m := range e.dom.Messages {
		groupCommentf(g, "%sRoutingKey is the routing key of %s %s on Exchange.", m.Name, m.Kind, m.Name)
		g.Id(routingKeyName(m)).Op("=").Lit(m.RoutingKey)
		if m.Kind == commandKind {
			groupCommentf(g, "%sQueue is the queue that owns command %s; it is bound to Exchange with %sRoutingKey.", m.Name, m.Name, m.Name)
			g.Id(queueName(m.Name)).Op("=").Lit(m.Queue)
		}
	}
	for _, r := range e.dom.RPCs {
		groupCommentf(g, "%sQueue is the queue that serves rpc %s; requests reach it through the default exchange, with the queue's name as routing key.", r.Name, r.Name)
		g.Id(queueName(r.Name)).Op("=").Lit(r.Queue)
	}
}

// records writes every named type and payload with its schema methods.
func (e *emitter) records() {
	for _, rec := range e.dom.Records {
		if isBound(rec) {
			continue // its Go type exists: typeName names it wherever the contract uses it
		}
		e.named(rec, fmt.Sprintf("%s is a type of the %s %s.", rec.Name, e.dom.describe(), e.dom.label()))
	}
	for _, m := range payloads(e.dom) {
		e.record(m.Record, fmt.Sprintf("%s is the payload of %s %s.", m.Name, m.Kind, m.Name))
		e.rawMethods(m)
	}
	for _, r := range e.dom.RPCs {
		e.record(r.Request, fmt.Sprintf("%s is the request of rpc %s.", r.Request.Name, r.Name))
		e.record(r.Response, fmt.Sprintf("%s is the response of rpc %s.", r.Response.Name, r.Name))
	}
}

func (e *emitter) named(rec *recordModel, first string) {
	switch rec.Shape {
	case enumShape:
		e.enum(rec, first)
	case fixedShape:
		e.fixed(rec, first)
	default:
		e.record(rec, first)
	}
}

func (e *emitter) record(rec *recordModel, first string) {
	e.comment(first, rec.Doc, rec.Deprecated)
	e.f.Type().Id(rec.Name).StructFunc(func(g *jen.Group) {
		for _, f := range rec.Fields {
			for _, c := range fieldComment(f.Doc, f.Deprecated) {
				g.Add(c)
			}
			g.Id(f.GoName).Add(e.goType(f.Type)).Tag(fieldTags(rec, f))
		}
	})
	e.schemaMethods(rec)
	e.unions(rec)
	e.jsonMethods(rec)
	e.jsonCodec(rec)
}

// fieldTags are a record field's struct tags: the wire name for avro and
// json, and for xml when an xml payload reaches the record.
func fieldTags(rec *recordModel, f *field) map[string]string {
	tags := map[string]string{"avro": f.Name, "json": f.Name}
	if rec.XML {
		tags["xml"] = f.Name
	}
	return tags
}

func (e *emitter) schemaMethods(rec *recordModel) {
	e.commentf("AvroSchema returns the Avro schema of %s in canonical form, with namespace %s.", rec.Name, namespaceOf(rec))
	e.f.Func().Params(jen.Id(rec.Name)).Id("AvroSchema").Params().String().Block(jen.Return(stringLit(rec.Avro.Canonical)))
	e.commentf("AvroFullSchema returns the Avro schema of %s as the contract declares it, with docs and defaults: the reader schema for schema resolution.", rec.Name)
	e.f.Func().Params(jen.Id(rec.Name)).Id("AvroFullSchema").Params().String().Block(jen.Return(stringLit(rec.Avro.Full)))
	e.commentf("AvroFingerprint returns the CRC-64-AVRO fingerprint of AvroSchema().")
	e.f.Func().Params(jen.Id(rec.Name)).Id("AvroFingerprint").Params().Uint64().Block(jen.Return(jen.Op(fmt.Sprintf("0x%016x", rec.Avro.Fingerprint))))
}

func namespaceOf(rec *recordModel) string {
	if i := lastDot(rec.FullName); i >= 0 {
		return rec.FullName[:i]
	}
	return ""
}

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}

// goType is the Go type of a field: an optional T becomes *T (an optional
// decimal **big.Rat, which hamba/avro reads and writes as ["null", decimal]
// where a nil-able *big.Rat would lose the value), optional slices and maps
// stay nil-able values; a type of another package is qualified with its
// import path.
func (e *emitter) goType(t *typ) jen.Code {
	switch t.Kind {
	case optionalKind:
		if t.Elem.Kind == arrayKind || t.Elem.Kind == mapKind {
			return e.goType(t.Elem)
		}
		return jen.Op("*").Add(e.goType(t.Elem))
	case arrayKind:
		return jen.Index().Add(e.goType(t.Elem))
	case mapKind:
		return jen.Map(jen.String()).Add(e.goType(t.Elem))
	case namedKind:
		return e.typeName(t.Record)
	case decimalKind:
		return jen.Op("*").Qual(bigPath, "Rat")
	case unionKind:
		return jen.Id(t.Iface)
	}
	return primitiveType(t.Prim)
}

// typeName names rec, qualified when another package declares it: the
// package of another domain, or the one of the Go type rec is bound to.
func (e *emitter) typeName(rec *recordModel) *jen.Statement {
	if isBound(rec) {
		if rec.Go.Package != "" {
			e.f.ImportName(rec.Go.Path, rec.Go.Package)
		}
		return jen.Qual(rec.Go.Path, rec.Go.Name)
	}
	if rec.Owner == nil || rec.Owner == e.dom {
		return jen.Id(rec.Name)
	}
	return jen.Qual(e.importPath(rec.Owner), rec.Name)
}

func primitiveType(prim string) jen.Code {
	switch prim {
	case "boolean":
		return jen.Bool()
	case "int":
		return jen.Int32()
	case "long":
		return jen.Int64()
	case "float":
		return jen.Float32()
	case "double":
		return jen.Float64()
	case "bytes":
		return jen.Index().Byte()
	case "date", "timestamp-millis", "timestamp-micros":
		return jen.Qual(timePath, "Time")
	case "time-millis", "time-micros":
		return jen.Qual(timePath, "Duration")
	}
	return jen.String() // string, uuid
}
