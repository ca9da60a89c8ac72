package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// constants writes the version guard, the exchange, routing keys and queues.
func (e *emitter) constants() {
	e.f.Comment("The generated code needs version 1 of the acemq runtime; a runtime that")
	e.f.Comment("cannot run it no longer declares the constant, so the mismatch fails to compile.")
	e.f.Const().Id("_").Op("=").Add(qual("SupportPackageIsVersion1"))
	e.f.Commentf("Exchange is the %s domain's topic exchange, where its events and commands travel.", e.dom.Name)
	e.f.Const().Id("Exchange").Op("=").Lit(e.dom.Name)
	if len(e.dom.Messages) > 0 {
		e.f.Const().DefsFunc(e.messageConstants)
	}
}

func (e *emitter) messageConstants(g *jen.Group) {
	for _, m := range e.dom.Messages {
		g.Commentf("%sRoutingKey is the routing key of %s %s on Exchange.", m.Name, m.Kind, m.Name)
		g.Id(m.Name + "RoutingKey").Op("=").Lit(m.RoutingKey)
		if m.Kind == Command {
			g.Commentf("%sQueue is the queue that owns command %s; it is bound to Exchange", m.Name, m.Name)
			g.Commentf("with %sRoutingKey.", m.Name)
			g.Id(m.Name + "Queue").Op("=").Lit(m.Queue)
		}
	}
}

// records writes a struct and its schema methods per record.
func (e *emitter) records() {
	for _, rec := range e.dom.Records {
		e.record(rec, fmt.Sprintf("%s is a type of the %s domain.", rec.Name, e.dom.Name))
	}
	for _, m := range e.dom.Messages {
		e.record(m.Record, fmt.Sprintf("%s is the payload of %s %s.", m.Name, m.Kind, m.Name))
		e.rawMethods(m)
	}
}

func (e *emitter) record(rec *Record, first string) {
	e.comment(first, rec.Doc, rec.Deprecated)
	e.f.Type().Id(rec.Name).StructFunc(func(g *jen.Group) {
		for _, f := range rec.Fields {
			for _, c := range fieldComment(f.Doc, f.Deprecated) {
				g.Add(c)
			}
			g.Id(f.GoName).Add(goType(f.Type)).Tag(map[string]string{"avro": f.Name, "json": f.Name})
		}
	})
	e.f.Commentf("AvroSchema returns the Avro schema of %s in canonical form, with", rec.Name)
	e.f.Comment("namespace " + e.dom.Namespace + ".")
	e.f.Func().Params(jen.Id(rec.Name)).Id("AvroSchema").Params().String().Block(jen.Return(stringLit(rec.Avro.Canonical)))
	e.f.Commentf("AvroFullSchema returns the Avro schema of %s as the contract declares", rec.Name)
	e.f.Comment("it, with docs and defaults: the reader schema for schema resolution.")
	e.f.Func().Params(jen.Id(rec.Name)).Id("AvroFullSchema").Params().String().Block(jen.Return(stringLit(rec.Avro.Full)))
	e.f.Commentf("AvroFingerprint returns the CRC-64-AVRO fingerprint of AvroSchema().")
	e.f.Func().Params(jen.Id(rec.Name)).Id("AvroFingerprint").Params().Uint64().Block(jen.Return(jen.Op(fmt.Sprintf("0x%016x", rec.Avro.Fingerprint))))
}

// goType is the Go type of a field: optional records and primitives become
// pointers, optional slices and maps stay nil-able values.
func goType(t *Type) jen.Code {
	switch t.Kind {
	case Optional:
		if t.Elem.Kind == Array || t.Elem.Kind == Map {
			return goType(t.Elem)
		}
		return jen.Op("*").Add(goType(t.Elem))
	case Array:
		return jen.Index().Add(goType(t.Elem))
	case Map:
		return jen.Map(jen.String()).Add(goType(t.Elem))
	case Named:
		return jen.Id(t.Record.Name)
	}
	return primitiveType(t.Prim)
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
