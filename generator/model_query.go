package generator

import "slices"

// Questions about the model that validation and emission both ask: each is
// answered here once, so neither stage calls the other.

// isUnionRecord reports whether rec holds a union, directly or in a record it contains.
func isUnionRecord(rec *recordModel) bool {
	return rec.Shape == recordShape && findField(rec, isKind(unionKind), map[*recordModel]bool{}) != nil
}

// isAvro reports whether codec writes Avro binary (avro, avro-registered).
func isAvro(codec string) bool {
	c, _ := codecNamed(codec)
	return c.avro
}

// unionFields returns the fields of rec whose type is a union.
func unionFields(rec *recordModel) []*field {
	var out []*field
	for _, f := range rec.Fields {
		if f.Type != nil && f.Type.Kind == unionKind {
			out = append(out, f)
		}
	}
	return out
}

// allRecords is every record of a domain: types, payloads, RPC halves.
func allRecords(dom *domain) []*recordModel {
	out := domainRecords(dom)
	for _, r := range dom.RPCs {
		out = append(out, r.Request, r.Response)
	}
	return out
}

// payloads is every message of a domain that carries a payload record:
// its events and commands, then its streams.
func payloads(dom *domain) []*message {
	return append(slices.Clip(dom.Messages), dom.Streams...)
}

// domainRecords is every record of a domain: the types, then the payloads.
func domainRecords(dom *domain) []*recordModel {
	out := slices.Clone(dom.Records)
	for _, m := range payloads(dom) {
		out = append(out, m.Record)
	}
	return out
}

func isKind(k typeKind) func(*typ) bool { return func(t *typ) bool { return t.Kind == k } }

// findField returns a field of rec, or of a record it contains, whose type
// holds a type matching match.
func findField(rec *recordModel, match func(*typ) bool, seen map[*recordModel]bool) *field {
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

func findInType(f *field, t *typ, match func(*typ) bool, seen map[*recordModel]bool) *field {
	switch {
	case t == nil:
		return nil
	case match(t):
		return f
	case t.Kind == namedKind:
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
func formFields(rec *recordModel) []*field {
	var out []*field
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
func hasJSONForm(t *typ) bool {
	l := leafOf(t)
	return l.Kind == decimalKind || l.Kind == primitiveKind && (l.Prim == "time-millis" || l.Prim == "time-micros")
}

// leafOf is the element type under t's optionals, arrays and maps.
func leafOf(t *typ) *typ {
	for t.Kind == optionalKind || t.Kind == arrayKind || t.Kind == mapKind {
		t = t.Elem
	}
	return t
}
