package generator

import "github.com/dave/jennifer/jen"

// codecFact is the generator's facts of one codec a contract may name.
type codecFact struct {
	name        string // as a contract spells it, and as the runtime registers it (acemq.CodecByName)
	importPath  string // the runtime package of its Go value; acemqPath for acemq's own
	goValue     string // its Go value there, a struct with no fields; "" when built from the payload's Avro schema
	contentType string // what it writes in the AMQP content-type property (FAMILY-SPEC §3)
	rpc         bool   // an RPC may use it: it is not bound to one schema
	avro        bool   // it writes Avro binary with the payload's schema
	registry    bool   // it registers the schema under the message's subject and frames its id
	raw         string // the YAML type of the one field a payload of a raw codec carries; "" for a record codec
}

// Names of the codecs the generator treats apart (the rest is in codecTable).
const (
	codecJSON           = "json"
	codecAvro           = "avro"
	codecAvroRegistered = "avro-registered"
	codecXML            = "xml"
)

// codecTable is every codec a contract may name, in the order diagnostics
// list them. It is the one place a codec is spelled.
var codecTable = []codecFact{
	{name: codecJSON, importPath: acemqPath, goValue: "JSONCodec", contentType: "application/json", rpc: true},
	{name: codecAvro, importPath: avroPath, contentType: "avro/binary", avro: true},
	{name: codecAvroRegistered, importPath: avroPath, contentType: "application/vnd.acemq.avro", avro: true, registry: true},
	{name: "yaml", importPath: yamlPath, goValue: "Codec", contentType: "application/yaml", rpc: true},
	{name: "toml", importPath: tomlPath, goValue: "Codec", contentType: "application/toml", rpc: true},
	{name: codecXML, importPath: xmlPath, goValue: "Codec", contentType: "application/xml", rpc: true},
	{name: "text", importPath: acemqPath, goValue: "StringCodec", contentType: "text/plain; charset=utf-8", raw: "string"},
	{name: "bytes", importPath: acemqPath, goValue: "BytesCodec", contentType: "application/octet-stream", raw: "bytes"},
}

// encryptedCodec is the codec the encrypted key wraps around a message's
// codec (runtime/crypto); its content type hides the inner one's.
var encryptedCodec = codecFact{name: "encrypted", importPath: cryptoPath, goValue: "Encrypted",
	contentType: "application/vnd.acemq.encrypted"}

// codecNamed is the row of name and whether the table has one.
func codecNamed(name string) (codecFact, bool) {
	if name == encryptedCodec.name {
		return encryptedCodec, true
	}
	for _, c := range codecTable {
		if c.name == name {
			return c, true
		}
	}
	return codecFact{}, false
}

// codecNames are the names of the codecs of which keep says true.
func codecNames(keep func(codecFact) bool) []string {
	var out []string
	for _, c := range codecTable {
		if keep(c) {
			out = append(out, c.name)
		}
	}
	return out
}

// knownCodec reports whether a contract may name codec.
func knownCodec(codec string) bool {
	_, ok := codecNamed(codec)
	return ok && codec != encryptedCodec.name
}

// value is the Go value of a codec that needs nothing from the connection.
func (c codecFact) value() jen.Code { return jen.Qual(c.importPath, c.goValue).Values() }

// CodecNames returns the codecs a contract may name (all) and those an rpc
// may name (rpc), in the table's order. The JSON Schema in schemas/ is
// tested against them.
func CodecNames() (all, rpc []string) {
	return codecNames(func(codecFact) bool { return true }),
		codecNames(func(c codecFact) bool { return c.rpc })
}
