package avro

import (
	"reflect"
	"sync"

	hamba "github.com/hamba/avro/v2"
)

// Struct tags that name a Go struct's fields on the wire.
const (
	tagAvro = "avro"
	tagJSON = "json"
)

// tagKeys caches tagKeyOf per Go type.
var tagKeys sync.Map // reflect.Type -> string

// tagKeyOf returns the struct tag that names the fields of t's structs:
// "avro", unless t holds json tags and no avro tag anywhere within it (the
// family's Go types are tagged for JSON, as the codec pages show), in which
// case "json", so one hand-written type travels as JSON and as Avro under the
// same names. Untagged fields keep their Go names either way.
func tagKeyOf(t reflect.Type) string {
	if t == nil {
		return tagAvro
	}
	if k, ok := tagKeys.Load(t); ok {
		return k.(string)
	}
	k := tagAvro
	if s := scanTags(t, map[reflect.Type]bool{}); s.json && !s.avro {
		k = tagJSON
	}
	tagKeys.Store(t, k)
	return k
}

// tagScan records which tags a type's exported struct fields carry.
type tagScan struct{ avro, json bool }

func (s tagScan) or(o tagScan) tagScan {
	return tagScan{avro: s.avro || o.avro, json: s.json || o.json}
}

// scanTags walks t's structs, through pointers, slices, arrays and maps,
// each struct once, stopping at the first avro tag.
func scanTags(t reflect.Type, seen map[reflect.Type]bool) tagScan {
	t = elemOf(t)
	if t.Kind() != reflect.Struct || seen[t] {
		return tagScan{}
	}
	seen[t] = true
	var s tagScan
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() || f.Anonymous {
			s = s.or(fieldTags(f, seen))
		}
		if s.avro {
			break
		}
	}
	return s
}

func fieldTags(f reflect.StructField, seen map[reflect.Type]bool) tagScan {
	_, avro := f.Tag.Lookup(tagAvro)
	_, json := f.Tag.Lookup(tagJSON)
	return tagScan{avro: avro, json: json}.or(scanTags(f.Type, seen))
}

// elemOf strips pointers, slices, arrays and maps off t.
func elemOf(t reflect.Type) reflect.Type {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		default:
			return t
		}
	}
}

// codecAPI is one frozen hamba API with the readers and writers bound to it.
type codecAPI struct {
	api     hamba.API
	readers sync.Pool // *hamba.Reader bound to api
	writers sync.Pool // *hamba.Writer bound to api
}

// apiFor returns the codec's API for the Go value v (a payload or a
// destination): the one naming fields by json tags, built on first use, when
// v's type asks for it, otherwise the one naming them by avro tags.
func (c *Codec) apiFor(v any) *codecAPI {
	if tagKeyOf(reflect.TypeOf(v)) != tagJSON {
		return &c.avroAPI
	}
	c.jsonOnce.Do(func() { c.jsonAPI = &codecAPI{api: newTaggedAPI(tagJSON)} })
	return c.jsonAPI
}
