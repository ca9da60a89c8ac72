package generator

import "github.com/dave/jennifer/jen"

// Import paths of the runtime packages a codec may need.
const (
	avroPath   = "github.com/acemq/acemq-gen/runtime/avro"
	cryptoPath = "github.com/acemq/acemq-gen/runtime/crypto"
	yamlPath   = "github.com/acemq/acemq-gen/runtime/yaml"
	tomlPath   = "github.com/acemq/acemq-gen/runtime/toml"
	xmlPath    = "github.com/acemq/acemq-gen/runtime/xml"
)

// codecSpec is what a message's or an RPC's codec is made of.
type codecSpec struct {
	name      string // the message or RPC
	codec     string
	encrypted bool
	subject   string // avro-registered
	payload   string // the Go type whose schema avro codecs use
	mirror    string // the payload's Avro mirror, when it holds a union
}

func messageCodec(m *message) codecSpec {
	c := codecSpec{name: m.Name, codec: m.Codec, encrypted: m.Encrypted, subject: m.Subject, payload: m.Name}
	if isAvro(m.Codec) && isUnionRecord(m.Record) {
		c.mirror = mirrorName(m.Record)
	}
	return c
}

func rpcCodec(r *rpc) codecSpec {
	return codecSpec{name: r.Name, codec: r.Codec, encrypted: r.Encrypted, payload: r.Request.Name}
}

// codecBuilder is the expression of a message's or an RPC's codec builder
// (an acemqimpl.CodecBuilder), the Codec of its specification: a codec that
// needs nothing from the connection wrapped in acemqimpl.Static, an avro
// codec built from the payload's schema (through its mirror when it holds a
// union), and an encrypted codec wrapping either with the connection's keyring.
func (c codecSpec) builder() jen.Code {
	inner := c.inner()
	if c.encrypted {
		return jen.Qual(encryptedCodec.importPath, encryptedCodec.goValue).Call(inner)
	}
	return inner
}

// inner is the builder of the codec before encryption.
func (c codecSpec) inner() jen.Code {
	rec := jen.Id(c.payload)
	var avro jen.Code
	switch c.codec {
	case codecAvro:
		avro = jen.Qual(avroPath, "Builder").Call(rec.Clone().Values().Dot("AvroSchema").Call())
	case codecAvroRegistered:
		avro = jen.Qual(avroPath, "RegisteredBuilder").Call(jen.Lit(c.subject),
			rec.Clone().Values().Dot("AvroSchema").Call(),
			jen.Qual(avroPath, "ReaderSchema").Call(rec.Clone().Values().Dot("AvroFullSchema").Call()))
	default:
		return impl("Static").Call(codecValue(c.codec))
	}
	if c.mirror == "" {
		return avro
	}
	return impl("Mirrored").Call(rec.Clone().Dot(toAvroMethod), jen.Id(c.mirror).Dot(fromAvroMethod), avro)
}

// codecValue is the runtime codec of a codec name that needs nothing from
// the connection: the table's Go value, json's for a name it lacks.
func codecValue(codec string) jen.Code {
	if c, ok := codecNamed(codec); ok && c.goValue != "" {
		return c.value()
	}
	jsonCodec, _ := codecNamed(codecJSON)
	return jsonCodec.value()
}

// describe says what the codec is, for the specification's doc comment.
func (c codecSpec) describe() string {
	if c.encrypted {
		return "encrypted " + c.codec
	}
	return c.codec
}
