package generator

// The xml codec names elements by field (runtime/xml: the xml tag, else the
// json tag), so every record an xml message or RPC carries gets xml tags
// beside its json and avro tags. A record is tagged when a payload of the run
// with codec xml reaches it, whichever package declares it; records no xml
// payload reaches are emitted as before.

// markXMLRecords sets XML on every record an xml payload of doms reaches.
func markXMLRecords(doms []*domain) {
	for _, dom := range doms {
		for _, m := range payloads(dom) {
			if m.Codec == codecXML {
				markXML(m.Record)
			}
		}
		for _, r := range dom.RPCs {
			if r.Codec == codecXML {
				markXML(r.Request)
				markXML(r.Response)
			}
		}
	}
}

// markXML sets XML on rec and on every record its fields reach.
func markXML(rec *recordModel) {
	if rec == nil || rec.XML || rec.Shape != recordShape {
		return
	}
	rec.XML = true
	for _, f := range rec.Fields {
		for t := f.Type; t != nil; t = t.Elem {
			if t.Kind == namedKind {
				markXML(t.Record)
			}
		}
	}
}

// xmlRecords is every record rec reaches, itself first, each once.
func xmlRecords(rec *recordModel, seen map[*recordModel]bool) []*recordModel {
	if rec == nil || seen[rec] || rec.Shape != recordShape {
		return nil
	}
	seen[rec] = true
	out := []*recordModel{rec}
	for _, f := range rec.Fields {
		for t := f.Type; t != nil; t = t.Elem {
			if t.Kind == namedKind {
				out = append(out, xmlRecords(t.Record, seen)...)
			}
		}
	}
	return out
}

// xmlProblem says why XML cannot carry a field of type t faithfully, or ""
// when it can: inList is true inside a list's items.
func xmlProblem(t *typ, inList bool) string {
	switch {
	case t == nil:
		return ""
	case t.Kind == mapKind:
		return "is a map, which XML cannot carry: its keys would become element names; use a list of records"
	case t.Kind == unionKind:
		return "is a union, which XML cannot carry: an element's text does not say which branch it holds; use one type, or an optional field per branch"
	case t.Kind == arrayKind && inList:
		return "is a list of lists, which XML cannot carry: the items of every inner list would become siblings of one name; use a list of records that hold a list"
	case t.Kind == arrayKind:
		return xmlProblem(t.Elem, true)
	case t.Kind == optionalKind:
		return xmlProblem(t.Elem, inList)
	}
	return ""
}
