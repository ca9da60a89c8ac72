package generator

import "time"

// defaultTimeout is an RPC caller's deadline unless the contract sets timeout.
const defaultTimeout = 30 * time.Second

// rpc resolves one request/reply pair with the file's defaults.
func (r *resolver) rpc(s *syntaxRPC) *rpc {
	x := &rpc{Pos: s.Name.P, Name: s.Name.V, Doc: s.Doc.V, Deprecated: s.Deprecated.V, Version: 1, Timeout: defaultTimeout}
	x.Queue = orDefault(s.Queue, r.dom.Name+"."+kebab(x.Name))
	if s.Timeout.Set {
		x.Timeout = r.duration(s.Timeout, "rpc "+x.Name+" timeout")
	}
	x.Codec = r.codecOf(s.Codec, r.codec)
	if c, ok := codecNamed(x.Codec); ok && !c.rpc {
		p := s.Codec.P
		if !s.Codec.Set {
			p = s.Name.P
		}
		r.d.errorf(p, "rpc %s: codec %s is bound to one schema, but a request and its response have two; use %s",
			x.Name, x.Codec, orList(codecNames(func(c codecFact) bool { return c.rpc })))
	}
	x.Encrypted = r.encrypted(s.Encrypted, r.f.Encrypted.V)
	if s.Version.Set {
		x.Version = s.Version.V
	}
	x.QueueSettings = r.queueSettings(s.syntaxQueueKeys)
	x.Errors = r.rpcErrors(x.Name, s.Errors)
	x.Request = r.rpcPayload(s.Request, s.Name, "Request")
	x.Response = r.rpcPayload(s.Response, s.Name, "Response")
	return x
}

func (r *resolver) rpcErrors(rpc string, names []sStr) []*rpcError {
	var out []*rpcError
	seen := map[string]bool{}
	for _, n := range names {
		switch {
		case !typeNameRE.MatchString(n.V):
			r.d.errorf(n.P, "rpc %s: bad error name %q: UpperCamelCase, such as NotFound", rpc, n.V)
		case seen[n.V]:
			r.d.errorf(n.P, "rpc %s: error %s is declared twice", rpc, n.V)
		default:
			out = append(out, &rpcError{Pos: n.P, Name: n.V})
		}
		seen[n.V] = true
	}
	return out
}

// rpcPayload declares <Rpc>Request or <Rpc>Response.
func (r *resolver) rpcPayload(p *syntaxPayload, rpc sStr, part string) *recordModel {
	name := sStr{V: rpcPayloadName(rpc.V, part), P: rpc.P, Set: true}
	if p == nil {
		r.d.errorf(rpc.P, "rpc %s has no %s (declare %s: {fields: {...}})", rpc.V, lower(part), lower(part))
		return r.newRecord(name, "", "")
	}
	name.P = p.P
	if p.Schema.Set {
		if rec := r.schemaRecord(p.Schema, name.V); rec != nil {
			return rec
		}
	}
	if !p.FieldsSet && !p.Schema.Set {
		r.d.errorf(p.P, "the %s of rpc %s has no fields (declare fields:, even empty as fields: {})", lower(part), rpc.V)
	}
	rec := r.newRecord(name, p.Doc.V, "")
	r.pending = append(r.pending, pendingRecord{rec, p.Fields})
	return rec
}

func lower(s string) string { return unexported(s) }
