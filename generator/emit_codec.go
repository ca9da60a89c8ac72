package generator

import "github.com/dave/jennifer/jen"

// Import paths of the runtime packages a codec may need.
const (
	avroPath   = "github.com/acemq/acemq-gen/runtime/avro"
	cryptoPath = "github.com/acemq/acemq-gen/runtime/crypto"
	yamlPath   = "github.com/acemq/acemq-gen/runtime/yaml"
	tomlPath   = "github.com/acemq/acemq-gen/runtime/toml"
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

func messageCodec(m *Message) codecSpec {
	c := codecSpec{name: m.Name, codec: m.Codec, encrypted: m.Encrypted, subject: m.Subject, payload: m.Name}
	if isAvro(m.Codec) && isUnionRecord(m.Record) {
		c.mirror = mirrorName(m.Record)
	}
	return c
}

func rpcCodec(r *RPC) codecSpec {
	return codecSpec{name: r.Name, codec: r.Codec, encrypted: r.Encrypted, payload: r.Request.Name}
}

// needsConn reports whether a message's codec is built from something the
// connection carries (a registry, a keyring) or can fail to build: such a
// codec is made by a generated <message>Codec(conn) function.
func needsConn(m *Message) bool { return messageCodec(m).needsConn() }

func (c codecSpec) needsConn() bool {
	return c.encrypted || c.codec == "avro" || c.codec == "avro-registered"
}

// codecFunc is the name of the generated codec builder of m.
func codecFunc(m *Message) string { return messageCodec(m).fn() }

func (c codecSpec) fn() string { return codecName(c.name) }

// publishCodecOption is the PublisherOption that sets m's codec.
func publishCodecOption(m *Message, typ jen.Code) jen.Code {
	if needsConn(m) {
		return qual("PublishWithFunc").Types(typ).Call(jen.Id(codecFunc(m)))
	}
	return qual("PublishWith").Types(typ).Call(codecValue(m.Codec))
}

// consumeCodecOption is the ConsumeOption that sets m's codec.
func consumeCodecOption(m *Message) jen.Code {
	if needsConn(m) {
		return qual("ConsumeWithFunc").Call(jen.Id("conn"), jen.Id(codecFunc(m)))
	}
	return qual("ConsumeWith").Call(codecValue(m.Codec))
}

// codecValue is the runtime codec of a codec name that needs nothing from
// the connection.
func codecValue(codec string) jen.Code {
	switch codec {
	case "text":
		return qual("StringCodec").Values()
	case "bytes":
		return qual("BytesCodec").Values()
	case "yaml":
		return jen.Qual(yamlPath, "Codec").Values()
	case "toml":
		return jen.Qual(tomlPath, "Codec").Values()
	}
	return qual("JSONCodec").Values()
}

// codecBuilders writes <message>Codec(conn) for the messages and RPCs that
// need one.
func (e *emitter) codecBuilders() {
	for _, m := range e.dom.Messages {
		if c := messageCodec(m); c.needsConn() {
			e.codecBuilder(c)
		}
	}
	for _, r := range e.dom.RPCs {
		if c := rpcCodec(r); c.needsConn() {
			e.codecBuilder(c)
		}
	}
}

func (e *emitter) codecBuilder(c codecSpec) {
	e.f.Commentf("%s builds the %s codec of %s from what conn carries.", c.fn(), c.desc(), c.name)
	e.f.Func().Id(c.fn()).Params(jen.Id("conn").Op("*").Add(qual("Conn"))).
		Parens(jen.List(qual("Codec"), jen.Error())).BlockFunc(func(g *jen.Group) {
		if !c.encrypted {
			g.Return(c.inner())
			return
		}
		inner := codecValue(c.codec)
		if c.codec == "avro" || c.codec == "avro-registered" {
			g.List(jen.Id("inner"), jen.Err()).Op(":=").Add(c.inner())
			g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
			inner = jen.Id("inner")
		}
		g.List(jen.Id("kr"), jen.Err()).Op(":=").Qual(cryptoPath, "KeyringFrom").Call(jen.Id("conn"))
		g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
		g.Return(jen.Qual(cryptoPath, "Wrap").Call(inner, jen.Id("kr")), jen.Nil())
	})
}

// inner is an expression of type (acemq.Codec, error): the codec before
// encryption.
func (c codecSpec) inner() jen.Code {
	rec := jen.Id(c.payload)
	var avro jen.Code
	switch c.codec {
	case "avro":
		avro = jen.Qual(avroPath, "OfCodec").Call(rec.Clone().Values().Dot("AvroSchema").Call())
	case "avro-registered":
		avro = jen.Qual(avroPath, "RegisteredOn").Call(jen.Id("conn"), jen.Lit(c.subject),
			rec.Clone().Values().Dot("AvroSchema").Call(),
			jen.Qual(avroPath, "ReaderSchema").Call(rec.Clone().Values().Dot("AvroFullSchema").Call()))
	default:
		return jen.List(codecValue(c.codec), jen.Nil())
	}
	if c.mirror == "" {
		return avro
	}
	return qual("Mirrored").Call(rec.Clone().Dot("toAvro"), jen.Id(c.mirror).Dot("fromAvro")).Call(avro)
}

func (c codecSpec) desc() string {
	if c.encrypted {
		return "encrypted " + c.codec
	}
	return c.codec
}
