package generator

import (
	"cmp"
	"slices"
)

// validateModel checks each domain, then what domains must not share, and
// builds the Avro schemas when nothing failed (a failed
// model may hold unresolved types).
func validateModel(m *model, d *diags) {
	for _, dom := range m.Domains {
		validateDomain(dom, d)
		warnDeprecated(dom, d)
	}
	checkUnique(m, d)
	checkImportCycles(m, d)
	if d.list.HasErrors() {
		return
	}
	for _, dom := range m.Domains {
		buildSchemas(dom, d)
	}
	slices.SortStableFunc(m.Domains, func(a, b *domain) int { return cmp.Compare(a.Package, b.Package) })
}

// checkUnique refuses two contracts with one domain or one package.
func checkUnique(m *model, d *diags) {
	domains, packages := map[string]*domain{}, map[string]*domain{}
	for _, dom := range m.Domains {
		if prev := domains[dom.Name]; prev != nil && !dom.Library {
			d.errorf(dom.Pos, "domain %s is already declared at %s", dom.Name, prev.Pos)
		} else if prev := packages[dom.Package]; prev != nil {
			d.errorf(dom.Pos, "package %s is already generated for %s %s at %s", dom.Package, prev.describe(), prev.label(), prev.Pos)
		}
		domains[dom.Name], packages[dom.Package] = dom, dom
	}
}

func buildSchemas(dom *domain, d *diags) {
	for _, rec := range allRecords(dom) {
		s, err := avroSchemas(rec)
		if err != nil {
			d.errorf(rec.Pos, "%v", err)
		}
		rec.Avro = s
	}
}

func warnDeprecated(dom *domain, d *diags) {
	for _, m := range payloads(dom) {
		if m.Deprecated != "" {
			d.warnf(m.Pos, "%s %s is deprecated: %s", m.Kind, m.Name, m.Deprecated)
		}
	}
	for _, r := range dom.RPCs {
		if r.Deprecated != "" {
			d.warnf(r.Pos, "rpc %s is deprecated: %s", r.Name, r.Deprecated)
		}
	}
	for _, rec := range allRecords(dom) {
		if rec.Deprecated != "" && !isPayload(dom, rec) {
			d.warnf(rec.Pos, "type %s is deprecated: %s", rec.Name, rec.Deprecated)
		}
		for _, f := range rec.Fields {
			warnField(rec, f, d)
		}
	}
	for _, m := range payloads(dom) {
		if m.Subject != defaultSubject(dom, m) && m.Codec != codecAvroRegistered {
			d.warnf(m.Pos, "%s %s: subject is used by codec avro-registered only; this message uses %s", m.Kind, m.Name, m.Codec)
		}
	}
}

// warnField warns about a deprecated field and a field of a deprecated type.
func warnField(rec *recordModel, f *field, d *diags) {
	if f.Deprecated != "" {
		d.warnf(f.Pos, "field %s of %s is deprecated: %s", f.Name, rec.Name, f.Deprecated)
	}
	for t := f.Type; t != nil; t = t.Elem {
		if t.Kind == namedKind && t.Record.Deprecated != "" {
			d.warnf(f.Pos, "field %s of %s uses type %s, which is deprecated: %s", f.Name, rec.Name, t.Record.Name, t.Record.Deprecated)
		}
	}
}

func isPayload(dom *domain, rec *recordModel) bool {
	return slices.ContainsFunc(payloads(dom), func(m *message) bool { return m.Record == rec })
}
