package generator

import "slices"

// declaration is a name a domain declares: a type, an event or command, or
// an RPC. They share one namespace, as their Go types do.
type declaration struct {
	what string // type, message or rpc
	name string
	pos  Pos
	item any // the *recordModel, *message or *rpc
}

// dropRedeclared reports each name a domain declares twice (in one file or
// across the files of a split domain) once, at the later declaration,
// pointing at the first, and drops the later one: the Go names and wire
// names it would claim again add no diagnostics of their own.
func (w *world) dropRedeclared() {
	for _, dom := range w.domains() {
		first, dropped := map[string]declaration{}, map[any]bool{}
		for _, d := range w.declarations(dom) {
			if prev, taken := first[d.name]; taken {
				w.d.errorf(d.pos, "%s %s is already declared at %s", prev.what, d.name, prev.pos)
				dropped[d.item] = true
				continue
			}
			first[d.name] = d
		}
		dom.Records = slices.DeleteFunc(dom.Records, func(r *recordModel) bool { return dropped[r] })
		dom.Messages = slices.DeleteFunc(dom.Messages, func(m *message) bool { return dropped[m] })
		dom.Streams = slices.DeleteFunc(dom.Streams, func(m *message) bool { return dropped[m] })
		dom.RPCs = slices.DeleteFunc(dom.RPCs, func(r *rpc) bool { return dropped[r] })
	}
}

// declarations lists the names dom declares, in file and position order:
// its types (not the types the generator names, such as an inline fixed
// type), messages and RPCs.
func (w *world) declarations(dom *domain) []declaration {
	var out []declaration
	for _, r := range dom.Records {
		if w.declared[r] {
			out = append(out, declaration{what: "type", name: r.Name, pos: r.Pos, item: r})
		}
	}
	for _, m := range payloads(dom) {
		out = append(out, declaration{what: declaredAs(m), name: m.Name, pos: m.Pos, item: m})
	}
	for _, r := range dom.RPCs {
		out = append(out, declaration{what: "rpc", name: r.Name, pos: r.Pos, item: r})
	}
	slices.SortStableFunc(out, func(a, b declaration) int { return a.pos.compare(b.pos) })
	return out
}

// declaredAs is what a message's declaration is called in a diagnostic.
func declaredAs(m *message) string {
	if m.Kind == streamKind {
		return "stream"
	}
	return "message"
}
