package generator

import (
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// avroHeader makes an .avsc file a type library named by the namespace of
// its first type, until join decides that it belongs to a domain.
func (r *resolver) avroHeader() bool {
	if len(r.f.Types) == 0 {
		return false
	}
	t := r.f.Types[0]
	if t.Namespace == "" {
		r.d.errorf(t.Name.P, "type %s: the types of an .avsc file need a namespace (its last segment names their Go package)", t.Name.V)
		return false
	}
	pkg := t.Namespace[strings.LastIndex(t.Namespace, ".")+1:]
	r.dom = &domain{Source: baseName(r.f.Path), Pos: t.Name.P, Package: pkg, Namespace: t.Namespace,
		Library: true, Dir: path.Dir(cleanPath(r.f.Path))}
	if !validPackage(pkg) {
		r.d.errorf(t.Name.P, "namespace %q ends in %q, which is not a Go package name", t.Namespace, pkg)
	}
	return true
}

// linkPayloads ties each message of an .avsc file to its declared record.
func (r *resolver) linkPayloads() {
	for _, s := range r.f.Messages {
		s.rec = r.records[s.Payload.Name.V]
	}
}

// join decides where the types and messages of every .avsc file go: into the
// domain whose contract names it with schema:, into the YAML domain its
// acemq property names, or into a domain of its own (the first file of that
// domain, by path, hosting the others).
func (w *world) join() {
	domains := map[string]*resolver{}
	for _, r := range w.files {
		if !r.f.Avro {
			r.claimSchemas()
		}
		if !r.f.Avro && !r.dom.Library && !r.merged {
			domains[r.dom.Name] = r
		}
	}
	for _, r := range w.files {
		if !r.f.Avro || r.consumedBy != nil || len(r.f.Messages) == 0 {
			continue
		}
		name := r.f.Messages[0].Domain.V
		if target := domains[name]; target != nil {
			target.absorb(r)
			continue
		}
		r.becomeDomain(name)
		domains[name] = r
	}
}

// claimSchemas marks the .avsc files this contract's schema: keys name.
func (r *resolver) claimSchemas() {
	var refs []sStr
	for _, m := range r.f.Messages {
		refs = append(refs, m.Schema)
	}
	for _, x := range r.f.RPCs {
		for _, p := range []*syntaxPayload{x.Request, x.Response} {
			if p != nil {
				refs = append(refs, p.Schema)
			}
		}
	}
	for _, s := range refs {
		if other := r.w.byPath[r.relative(s.V)]; s.Set && other != nil && other.f.Avro && other.consumedBy == nil {
			other.consumedBy = r
		}
	}
}

// relative is the clean path of p, written relative to this file.
func (r *resolver) relative(p string) string {
	return cleanPath(path.Join(path.Dir(cleanPath(r.f.Path)), filepath.ToSlash(p)))
}

// schemaRecord returns the record of the .avsc file named by s, which joins
// this domain; nil after reporting why it cannot.
func (r *resolver) schemaRecord(s sStr, name string) *recordModel {
	other := r.w.byPath[r.relative(s.V)]
	switch {
	case other == nil:
		r.d.errorf(s.P, "schema %q: %s", s.V, noSuchFile(r.relative(s.V)))
		return nil
	case !other.f.Avro:
		r.d.errorf(s.P, "schema %q: %s is not an .avsc file", s.V, r.relative(s.V))
		return nil
	case other.consumedBy != r:
		r.d.errorf(s.P, "schema %q is already the payload of another contract's message", s.V)
		return nil
	case other.dom == nil || len(other.f.Types) == 0:
		return nil
	}
	top := other.records[other.f.Types[0].Name.V]
	if top.Shape != recordShape || top.Name != name {
		r.d.errorf(s.P, "schema %q: its first schema must be a record named %s, like the message", s.V, name)
		return nil
	}
	r.absorb(other)
	other.consumedBy, other.asSchema = nil, true // a second use of the file is an error
	return r.takePayload(top)
}

// absorb moves every type of other into this domain.
func (r *resolver) absorb(other *resolver) {
	for _, rec := range other.dom.Records {
		rec.Owner = r.dom
	}
	r.dom.Records = append(r.dom.Records, other.dom.Records...)
	other.dom.Records = nil
	other.merged, other.into = true, r
}

// takePayload makes rec a message payload of this domain rather than a type.
func (r *resolver) takePayload(rec *recordModel) *recordModel {
	rec.Owner = r.dom
	r.dom.Records = slices.DeleteFunc(r.dom.Records, func(x *recordModel) bool { return x == rec })
	return rec
}

// becomeDomain turns an .avsc file's library into the domain its messages name.
func (r *resolver) becomeDomain(name string) {
	r.dom.Library, r.dom.Name = false, name
	r.dom.Package = strings.ReplaceAll(name, "-", "")
	if !domainRE.MatchString(name) {
		r.d.errorf(r.f.Messages[0].Domain.P, "bad domain %q: lower-case words joined by '-', such as orders or order-events", name)
	}
}

// declareAvscMessages declares the messages of an .avsc file in the domain
// it joined; RPC halves wait for pairRPCs.
func (r *resolver) declareAvscMessages() {
	if r.consumedBy != nil || r.asSchema {
		return // the payload of a contract's message, which holds the message's keys
	}
	target := r
	if r.into != nil {
		target = r.into
	}
	for _, s := range r.f.Messages {
		if s.Domain.V != target.dom.Name {
			r.d.errorf(s.Domain.P, "record %s names domain %s, but this file's messages belong to %s", s.Name.V, s.Domain.V, target.dom.Name)
			continue
		}
		if strings.HasPrefix(s.AvroKind.V, "rpc-") {
			target.halves = append(target.halves, s)
			continue
		}
		target.dom.Messages = append(target.dom.Messages, target.message(s))
	}
}

// pairRPCs makes an RPC of each <Rpc>Request and <Rpc>Response record pair
// declared in .avsc files of this domain; the request's acemq property holds
// the RPC's keys.
func (r *resolver) pairRPCs() {
	reqs, resps := r.rpcHalves()
	for _, name := range slices.Sorted(maps.Keys(reqs)) {
		if resps[name] == nil {
			r.d.errorf(reqs[name].Name.P, "record %s: no record %sResponse has kind rpc-response", reqs[name].Name.V, name)
			continue
		}
		r.dom.RPCs = append(r.dom.RPCs, r.avscRPC(name, reqs[name], resps[name]))
	}
	for name, s := range resps {
		if reqs[name] == nil {
			r.d.errorf(s.Name.P, "record %s: no record %sRequest has kind rpc-request", s.Name.V, name)
		}
	}
}

// rpcHalves sorts the RPC halves by kind, keyed by the RPC's name.
func (r *resolver) rpcHalves() (reqs, resps map[string]*syntaxMessage) {
	halves := map[string]map[string]*syntaxMessage{"rpc-request": {}, "rpc-response": {}}
	for _, s := range r.halves {
		suffix := map[string]string{"rpc-request": "Request", "rpc-response": "Response"}[s.AvroKind.V]
		name, ok := strings.CutSuffix(s.Name.V, suffix)
		if !ok || name == "" {
			r.d.errorf(s.Name.P, "record %s: an %s record is named <Rpc>%s", s.Name.V, s.AvroKind.V, suffix)
			continue
		}
		halves[s.AvroKind.V][name] = s
	}
	return halves["rpc-request"], halves["rpc-response"]
}

func (r *resolver) avscRPC(name string, req, resp *syntaxMessage) *rpc {
	s := &syntaxRPC{Name: sStr{V: name, P: req.Name.P, Set: true}, Doc: req.Doc, Deprecated: req.Deprecated,
		Codec: req.Codec, Queue: req.Queue, Timeout: req.Timeout, Encrypted: req.Encrypted, Version: req.Version,
		syntaxQueueKeys: req.syntaxQueueKeys, Errors: req.Errors, Request: &syntaxPayload{P: req.Name.P, FieldsSet: true}, Response: &syntaxPayload{P: resp.Name.P, FieldsSet: true}}
	x := r.rpc(s)
	r.pending = r.pending[:len(r.pending)-2] // the two empty payloads rpc declared
	x.Request, x.Response = r.takePayload(req.rec), r.takePayload(resp.rec)
	return x
}
