package xml

import (
	stdxml "encoding/xml"
	"reflect"
	"strings"
	"sync"
)

// field is how one struct field is named in XML and in JSON, the form the
// codec converts through.
type field struct {
	xmlName   string       // the element's name: xml tag, else json tag, else Go name
	jsonKey   string       // the key encoding/json reads and writes the field under
	typ       reflect.Type // the field's Go type
	omitEmpty bool         // an xml tag's omitempty: an empty value writes no element
	quoted    bool         // a json tag's ",string": the JSON form of a number is a string
}

// fieldSet is a struct type's fields by element name and by JSON key, and
// the JSON keys XML leaves out (xml:"-", the XMLName field).
type fieldSet struct {
	byXML   map[string]*field
	byJSON  map[string]*field
	skipped map[string]bool
}

var fieldCache sync.Map // reflect.Type → *fieldSet

// fieldsOf returns the fields of struct type t, embedded structs' fields
// promoted as encoding/json promotes them (the first of a name wins).
func fieldsOf(t reflect.Type) *fieldSet {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.(*fieldSet)
	}
	fs := &fieldSet{byXML: map[string]*field{}, byJSON: map[string]*field{}, skipped: map[string]bool{}}
	collect(t, fs, 0)
	actual, _ := fieldCache.LoadOrStore(t, fs)
	return actual.(*fieldSet)
}

// maxEmbedding bounds how deep embedded structs are promoted.
const maxEmbedding = 8

var xmlNameType = reflect.TypeFor[stdxml.Name]()

func collect(t reflect.Type, fs *fieldSet, depth int) {
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Type == xmlNameType && sf.Name == "XMLName" || sf.Tag.Get("xml") == "-" {
			fs.skipped[jsonKey(sf)] = true
			continue
		}
		if promoted(sf) {
			if depth < maxEmbedding {
				collect(deref(sf.Type), fs, depth+1)
			}
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if f := describe(sf); f != nil {
			add(fs, f)
		}
	}
}

// promoted reports whether sf is an embedded struct whose fields
// encoding/json promotes: no json name of its own.
func promoted(sf reflect.StructField) bool {
	if !sf.Anonymous || deref(sf.Type).Kind() != reflect.Struct {
		return false
	}
	name, _ := tagName(sf.Tag.Get("json"))
	return name == "" && sf.Tag.Get("json") != "-"
}

// describe names sf, or returns nil when either format leaves it out.
func describe(sf reflect.StructField) *field {
	jtag, xtag := sf.Tag.Get("json"), sf.Tag.Get("xml")
	if jtag == "-" || xtag == "-" {
		return nil
	}
	jname := jsonKey(sf)
	_, jopts := tagName(jtag)
	xname, xopts := tagName(xtag)
	if i := strings.LastIndexByte(xname, ' '); i >= 0 {
		xname = xname[i+1:] // "namespace local": the local name
	}
	if xname == "" {
		xname = jname
	}
	return &field{xmlName: xname, jsonKey: jname, typ: sf.Type, omitEmpty: hasOpt(xopts, "omitempty"), quoted: hasOpt(jopts, "string")}
}

// jsonKey is the key encoding/json writes sf under.
func jsonKey(sf reflect.StructField) string {
	if name, _ := tagName(sf.Tag.Get("json")); name != "" {
		return name
	}
	return sf.Name
}

func add(fs *fieldSet, f *field) {
	if _, dup := fs.byXML[f.xmlName]; !dup {
		fs.byXML[f.xmlName] = f
	}
	if _, dup := fs.byJSON[f.jsonKey]; !dup {
		fs.byJSON[f.jsonKey] = f
	}
}

// rootName is the element name Go's encoding/xml gives a value of type t:
// the XMLName field's tag, or else the type's name.
func rootName(t reflect.Type) string {
	t = deref(t)
	if t.Kind() == reflect.Struct {
		if sf, ok := t.FieldByName("XMLName"); ok && sf.Type == xmlNameType {
			name, _ := tagName(sf.Tag.Get("xml"))
			if i := strings.LastIndexByte(name, ' '); i >= 0 {
				name = name[i+1:]
			}
			if name != "" {
				return name
			}
		}
	}
	name, _, _ := strings.Cut(t.Name(), "[") // a generic type's name without its arguments
	return name
}

// tagName splits a struct tag value into its name and its options.
func tagName(tag string) (string, string) {
	name, opts, _ := strings.Cut(tag, ",")
	return name, opts
}

func hasOpt(opts, want string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == want {
			return true
		}
	}
	return false
}

// deref strips pointers from t.
func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
