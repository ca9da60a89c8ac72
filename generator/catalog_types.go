package generator

// What a contract catalog shows beyond where messages travel: each domain's
// doc and named types, each payload's fields. Read from the model once,
// here; the catalog site (acemq-gen catalog) renders it.

// CatalogDomain is one contract's domain as a catalog shows it: its doc and
// its named types (records, enums, fixed types of types:), in file order.
type CatalogDomain struct {
	Name string
	Doc  string
	// Library says the contract is a type library: types only, no exchange;
	// one that names no domain is named by its Go package.
	Library bool
	Types   []Type
}

// Type is a named type or a payload: a record (Shape "record") with Fields,
// an enum with Symbols, or a fixed type of Size bytes.
type Type struct {
	// Domain is the domain declaring it (CatalogDomain.Name); Name its contract name; FullName
	// its Avro full name (namespace.Name).
	Domain, Name, FullName string
	Shape                  string // record, enum or fixed
	Doc, Deprecated        string
	Fields                 []Field
	Symbols                []string
	EnumDefault            string // "" when none
	Size                   int
	// Avro is the type's full Avro schema, as a reader schema holds it.
	Avro string
}

// Field is one field of a record.
type Field struct {
	Name            string // the wire name
	Doc, Deprecated string
	Type            FieldType
	// Default is the field's Avro default as JSON values decode it;
	// meaningful when HasDefault.
	Default    any
	HasDefault bool
}

// FieldType is a field's resolved type. Kind is "primitive" (Name is
// boolean, int, long, float, double, string, bytes or a logical type such as
// uuid or timestamp-millis), "named" (Name and Domain name a Type),
// "optional", "array" or "map" (of Elem), "decimal" (Precision, Scale) or
// "union" (of Branches; Nullable when null is one). Text spells it as a
// contract writes it: long, string?, [Money], {map: long}, decimal(10,2).
type FieldType struct {
	Kind, Name, Domain string
	Text               string
	Elem               *FieldType
	Branches           []FieldType
	Precision, Scale   int
	Nullable           bool
}

// Optional says a value of t may be absent (T?, or a union with null).
func (t FieldType) Optional() bool { return t.Kind == "optional" || t.Kind == "union" && t.Nullable }

// CatalogContents is every message and RPC of the contracts in srcs as
// Catalog returns them, each event's, command's and RPC's with its doc and
// payload, and every domain with its types. When the contracts have errors
// it returns none and the diagnostics.
func CatalogContents(srcs []Source) (entries []Entry, domains []CatalogDomain, ds Diagnostics) {
	if entries, ds = Catalog(srcs); ds.HasErrors() {
		return nil, nil, ds
	}
	defer recoverInternal(&ds)
	m, _ := build(srcs)
	for _, d := range m.Domains {
		cd := CatalogDomain{Name: catalogName(d), Doc: d.Doc, Library: d.Library}
		for _, r := range d.Records {
			cd.Types = append(cd.Types, typeOf(r))
		}
		domains = append(domains, cd)
		for i := range entries {
			if entries[i].Domain == d.Name {
				describeEntry(d, &entries[i])
			}
		}
	}
	return entries, domains, nil
}

// describeEntry sets e's doc, content type and payload from the message or
// RPC of d it names.
func describeEntry(d *domain, e *Entry) {
	for _, msg := range payloads(d) {
		if msg.Name == e.Name && msg.Kind.String() == e.Kind {
			e.Doc, e.Deprecated, e.ContentType = msg.Doc, msg.Deprecated, contentType(wireCodec(msg.Codec, msg.Encrypted))
			e.Payload, e.Example = typeRef(msg.Record), examplePayload(msg.Record, e.Raw)
		}
	}
	for _, r := range d.RPCs {
		if r.Name == e.Name && e.Kind == "rpc" {
			e.Doc, e.Deprecated, e.ContentType = r.Doc, r.Deprecated, contentType(wireCodec(r.Codec, r.Encrypted))
			e.Payload, e.Response = typeRef(r.Request), typeRef(r.Response)
			e.Example = examplePayload(r.Request, e.Raw)
		}
	}
}

// catalogName is d's name in a catalog: its domain, or the Go package of a
// type library that names none.
func catalogName(d *domain) string {
	if d.Name == "" {
		return d.Package
	}
	return d.Name
}

// typeRef is rec's Type, or nil for no record (a raw codec's payload).
func typeRef(rec *recordModel) *Type {
	if rec == nil {
		return nil
	}
	t := typeOf(rec)
	return &t
}

func typeOf(r *recordModel) Type {
	t := Type{Name: r.Name, FullName: r.FullName, Shape: [...]string{"record", "enum", "fixed"}[r.Shape],
		Doc: r.Doc, Deprecated: r.Deprecated, Symbols: r.Symbols, EnumDefault: r.EnumDefault, Size: r.Size, Avro: r.Avro.Full}
	if r.Owner != nil {
		t.Domain = catalogName(r.Owner)
	}
	for _, f := range r.Fields {
		t.Fields = append(t.Fields, Field{Name: f.Name, Doc: f.Doc, Deprecated: f.Deprecated,
			Type: fieldType(f.Type), Default: f.Default, HasDefault: f.HasDefault})
	}
	return t
}

func fieldType(t *typ) FieldType {
	ft := FieldType{Kind: [...]string{"primitive", "named", "optional", "array", "map", "decimal", "union"}[t.Kind],
		Name: t.Prim, Text: contractType(t), Precision: t.Precision, Scale: t.Scale, Nullable: t.Nullable}
	if t.Record != nil {
		ft.Name = t.Record.Name
		if t.Record.Owner != nil {
			ft.Domain = catalogName(t.Record.Owner)
		}
	}
	if t.Elem != nil {
		elem := fieldType(t.Elem)
		ft.Elem = &elem
	}
	for _, b := range t.Branches {
		ft.Branches = append(ft.Branches, fieldType(b))
	}
	return ft
}
