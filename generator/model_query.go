package generator

import "slices"

// Questions about the model that validation and emission both ask: each is
// answered here once, so neither stage calls the other.

// isUnionRecord reports whether rec holds a union, directly or in a record it contains.
func isUnionRecord(rec *Record) bool {
	return rec.Shape == RecordShape && findField(rec, isKind(Union), map[*Record]bool{}) != nil
}

// isAvro reports whether codec writes Avro binary (avro, avro-registered).
func isAvro(codec string) bool { return codec == "avro" || codec == "avro-registered" }

// unionFields returns the fields of rec whose type is a union.
func unionFields(rec *Record) []*Field {
	var out []*Field
	for _, f := range rec.Fields {
		if f.Type != nil && f.Type.Kind == Union {
			out = append(out, f)
		}
	}
	return out
}

// allRecords is every record of a domain: types, payloads, RPC halves.
func allRecords(dom *domain) []*Record {
	out := domainRecords(dom)
	for _, r := range dom.RPCs {
		out = append(out, r.Request, r.Response)
	}
	return out
}

// domainRecords is every record of a domain: the types, then the payloads.
func domainRecords(dom *domain) []*Record {
	out := slices.Clone(dom.Records)
	for _, m := range dom.Messages {
		out = append(out, m.Record)
	}
	return out
}

func isKind(k TypeKind) func(*Type) bool { return func(t *Type) bool { return t.Kind == k } }

// findField returns a field of rec, or of a record it contains, whose type
// holds a type matching match.
func findField(rec *Record, match func(*Type) bool, seen map[*Record]bool) *Field {
	if seen[rec] {
		return nil
	}
	seen[rec] = true
	for _, f := range rec.Fields {
		if hit := findInType(f, f.Type, match, seen); hit != nil {
			return hit
		}
	}
	return nil
}

func findInType(f *Field, t *Type, match func(*Type) bool, seen map[*Record]bool) *Field {
	switch {
	case t == nil:
		return nil
	case match(t):
		return f
	case t.Kind == Named:
		return findField(t.Record, match, seen)
	}
	return findInType(f, t.Elem, match, seen)
}

// describe and label name the package's contract in comments.
func (d *domain) describe() string {
	if d.Library {
		return "type library"
	}
	return d.Name
}

func (d *domain) label() string {
	if d.Library {
		return d.Namespace
	}
	return "domain"
}

// formFields returns the fields of rec that need a JSON form.
func formFields(rec *Record) []*Field {
	var out []*Field
	for _, f := range rec.Fields {
		if f.Type != nil && hasJSONForm(f.Type) {
			out = append(out, f)
		}
	}
	return out
}

// hasJSONForm reports whether encoding/json's own form of a value of type t
// is not the contract's: a time-millis, a time-micros or a decimal, directly
// or in an optional, array or map.
func hasJSONForm(t *Type) bool {
	l := leafOf(t)
	return l.Kind == Decimal || l.Kind == Primitive && (l.Prim == "time-millis" || l.Prim == "time-micros")
}

// leafOf is the element type under t's optionals, arrays and maps.
func leafOf(t *Type) *Type {
	for t.Kind == Optional || t.Kind == Array || t.Kind == Map {
		t = t.Elem
	}
	return t
}
