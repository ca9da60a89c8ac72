package generator

import "strings"

// message resolves one event or command with the file's defaults.
func (r *resolver) message(s *syntaxMessage) *message {
	m := r.messageSettings(s)
	m.Record = r.payload(s)
	return m
}

// messageSettings resolves every key of a message but its payload.
func (r *resolver) messageSettings(s *syntaxMessage) *message {
	m := &message{Kind: s.Kind, Pos: s.Name.P, Name: s.Name.V, Doc: s.Doc.V,
		Deprecated: s.Deprecated.V, Version: 1}
	m.RoutingKey = orDefault(s.RoutingKey, dotWords(m.Name))
	if s.Kind == commandKind {
		m.Queue = orDefault(s.Queue, r.dom.Name+"."+kebab(m.Name))
	}
	m.Subject = orDefault(s.Subject, defaultSubject(r.dom, m))
	m.Codec = r.codecOf(s.Codec, r.codec)
	m.Encrypted = r.encrypted(s.Encrypted, r.f.Encrypted.V)
	m.Mandatory = s.Kind == commandKind || s.Mandatory.V
	m.Schedulable = s.Schedulable.V
	m.ScheduleLadder = r.ladder
	r.version(m, s.Version)
	m.QueueSettings = r.queueSettings(s.syntaxQueueKeys)
	m.Retry = r.retryOf(s.Retry, r.retry)
	m.Headers = r.headers(s.Headers)
	return m
}

// encrypted reads an encrypted key over def.
func (r *resolver) encrypted(s sBool, def bool) bool {
	if !s.Set {
		return def
	}
	return s.V
}

func (r *resolver) version(m *message, v sInt) {
	if !v.Set {
		return
	}
	m.Version = v.V
	if v.V < 1 {
		r.d.errorf(v.P, "version must be at least 1")
	}
}

// payload declares the message's record; its fields resolve with the types.
// An .avsc message's payload is its own record, a YAML message's may come
// from the .avsc file named by schema:.
func (r *resolver) payload(s *syntaxMessage) *recordModel {
	if s.rec != nil {
		return r.takePayload(s.rec)
	}
	if s.Schema.Set {
		if s.FieldsSet {
			r.d.errorf(s.Schema.P, "%s %s: schema and fields exclude each other", s.Kind, s.Name.V)
		}
		if rec := r.schemaRecord(s.Schema, s.Name.V); rec != nil {
			return rec
		}
		return r.newRecord(s.Name, s.Doc.V, s.Deprecated.V)
	}
	if !s.FieldsSet {
		r.d.errorf(s.Name.P, "%s %s has no fields (declare fields:, even empty as fields: {})", s.Kind, s.Name.V)
	}
	rec := r.newRecord(s.Name, s.Doc.V, s.Deprecated.V)
	r.pending = append(r.pending, pendingRecord{rec, s.Fields})
	return rec
}

func (r *resolver) headers(hs []*syntaxHeader) []*header {
	var out []*header
	for _, h := range hs {
		typ := h.Type.V
		if !h.Type.Set {
			typ = "string"
		} else if !headerTypes[typ] {
			r.d.errorf(h.Type.P, "header %s: type %q is not a header type (boolean, int, long, double or string)", h.Name.V, typ)
		}
		out = append(out, &header{Pos: h.Name.P, Name: h.Name.V, GoName: GoName(h.Name.V),
			Type: typ, Typed: h.Type.Set, Doc: h.Doc.V, Required: h.Required.V})
	}
	return out
}

var headerTypes = map[string]bool{"boolean": true, "int": true, "long": true, "double": true, "string": true}

// newRecord creates a record named by the contract, in the domain's namespace.
func (r *resolver) newRecord(name sStr, doc, deprecated string) *recordModel {
	return &recordModel{Pos: name.P, Name: name.V, FullName: r.dom.Namespace + "." + name.V,
		Doc: strings.TrimSpace(doc), Deprecated: strings.TrimSpace(deprecated), Owner: r.dom}
}

// defaultSubject is a message's registry subject unless the contract names
// one: <domain>-<routing-key>.
func defaultSubject(dom *domain, m *message) string { return dom.Name + "-" + m.RoutingKey }
