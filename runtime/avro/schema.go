package avro

import (
	hamba "github.com/hamba/avro/v2"
)

// Size limits of the hamba API every codec decodes through.
const (
	// MaxBytesSize is the largest bytes or string value a message may carry.
	MaxBytesSize = 16 << 20
	// MaxArrayItems is the most items a message may hold in all its arrays
	// and maps together (and so in any one of them).
	MaxArrayItems = 1 << 20
)

// parse parses schema with a fresh cache, so that a named type one schema
// defines never leaks into another schema's parse.
func parse(schema string) (hamba.Schema, error) {
	return hamba.ParseWithCache(schema, "", &hamba.SchemaCache{})
}

// newAPI returns a frozen hamba API of the package's settings, one per codec:
// its encoder and decoder caches are never shared with another codec or with
// hamba's globals.
func newAPI() hamba.API {
	return newTaggedAPI(tagAvro)
}

// newTaggedAPI is newAPI naming struct fields by tagKey.
func newTaggedAPI(tagKey string) hamba.API {
	return hamba.Config{
		TagKey:            tagKey,
		MaxByteSliceSize:  MaxBytesSize,
		MaxSliceAllocSize: MaxArrayItems,
	}.Freeze()
}

// fullName names a schema in messages: its full name when it has one,
// otherwise its type.
func fullName(s hamba.Schema) string {
	if n, ok := s.(hamba.NamedSchema); ok {
		return n.FullName()
	}
	return string(s.Type())
}
