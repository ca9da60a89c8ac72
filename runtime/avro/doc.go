// Package avro is the Avro codec for acemq, on github.com/hamba/avro/v2, in the
// family's two modes, and the schema registry the framed mode reads from.
//
// Of(schema) carries nothing on the wire: both ends must hold the same schema.
//
//	payload ──Marshal(schema)──▶ body (avro/binary)
//
// Registered(registry, subject, schema) frames every message the way
// Confluent's clients do, so Java, .NET, Python, Ruby and Go read each other:
//
//	payload ──Marshal(schema)──▶ 0x00 | schema id (4 bytes, big-endian) | body   (application/vnd.acemq.avro)
//	                              ▲ registry.Register once, id cached
//	body ──▶ id ──registry.ByID once per id──▶ writer schema
//	        └─(ReaderSchema given) SchemaCompatibility.Resolve(reader, writer), once per id
//	     ──Unmarshal──▶ *dst
//
// Without ReaderSchema a registered codec decodes with the writer's schema (the
// family's "writerShape"); with it, fields the writer omitted arrive carrying
// the reader's defaults and fields the reader does not declare are skipped
// ("resolved"). The bytes on the wire are the same either way.
//
// Each codec parses its schemas with its own schema cache and encodes through
// its own frozen hamba API with size limits (MaxBytesSize, MaxArrayItems), so
// two codecs whose schemas share a full name never see each other's
// definitions, and the package never touches hamba's global cache.
//
// A Go struct's fields are named on the wire by their avro tags. A type with
// json tags and no avro tag anywhere within it (as the family's hand-written
// types are, tagged for JSON) is named by its json tags instead, so the same
// type travels as JSON and as Avro under the same names.
//
// Before hamba decodes a body whose schema holds an array, a map or a named
// type reference, the codec walks the bytes along the writer's schema without
// allocating and refuses, as a fatal error, a length or count that runs past
// the body, more than MaxArrayItems items over all arrays and maps, a block whose byte
// size disagrees with its items, and nesting deeper than MaxDepth. hamba
// v2.31.0 trusts block counts: a crafted count overflows its running total
// and has it write past the end of a slice, and a huge count in a skipped
// field spins its skipper. Schemas without those kinds decode with no walk.
//
// A codec only claims the content type its own mode reads: Of refuses
// application/vnd.acemq.avro and Registered refuses avro/binary; both take
// application/avro* and any +avro suffix type. Neither answers for a message
// with no content type, and Avro is not in acemq's codec-name registry: it
// needs a schema.
//
// Registries: NewMemoryRegistry (in process, ids from 1, no compatibility
// checks) and NewConfluentRegistry (the Confluent Schema Registry REST API).
// Generated code finds the registry on the connection: pass WithRegistry to
// acemq.Connect and read it with RegistryFrom.
package avro
