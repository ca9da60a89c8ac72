package generator

import (
	"fmt"
	"strings"
)

// symbols records which part of a contract claims each generated Go name.
type symbols struct {
	d     *diags
	owner map[string]symbol
}

type symbol struct {
	what string
	pos  Pos
}

// generatedNames are the package-level names every domain package declares
// (some only when the domain has events, commands or RPCs; claimed always,
// so adding a message never makes an existing type's name collide).
var generatedNames = []string{"Exchange", "Publisher", "NewPublisher", "Topology", "DeclareTopology", "newTopology",
	"Handlers", "UnimplementedHandlers", "EventHandlers", "UnimplementedEventHandlers", "Serve", "Subscribe",
	"Server", "Client", "NewClient", "Rules",
}

// claim records that what (at p) becomes the Go name name, reporting a
// collision with an earlier claim.
func (s *symbols) claim(name, what string, p Pos) {
	if prev, taken := s.owner[name]; taken {
		s.d.errorf(p, "Go-name collision: %s and %s both become %s", prev.what, what, name)
		return
	}
	s.owner[name] = symbol{what: what, pos: p}
}

// checkGoNames claims every Go name the domain's package will declare.
func checkGoNames(dom *Domain, d *diags) {
	s := &symbols{d: d, owner: map[string]symbol{}}
	if !dom.Library {
		for _, n := range generatedNames {
			s.claim(n, "the generated "+n, dom.Pos)
		}
	}
	for _, rec := range dom.Records {
		claimType(s, rec)
	}
	for _, m := range dom.Messages {
		claimMessage(s, m)
	}
	for _, r := range dom.RPCs {
		claimRPC(s, r)
	}
	for _, rec := range allRecords(dom) {
		claimUnions(s, rec)
	}
	claimHeaders(s, dom)
}

func claimType(s *symbols, rec *Record) {
	s.claim(rec.Name, fmt.Sprintf("type %s", rec.Name), rec.Pos)
	seen := map[string]bool{}
	for _, sym := range rec.Symbols {
		if seen[sym] {
			continue // reported as listed twice
		}
		seen[sym] = true
		s.claim(enumConst(rec, sym), fmt.Sprintf("symbol %s of enum %s", sym, rec.Name), rec.Pos)
	}
}

func claimRPC(s *symbols, r *RPC) {
	what := "rpc " + r.Name
	s.claim(r.Request.Name, "the request of "+what, r.Pos)
	s.claim(r.Response.Name, "the response of "+what, r.Pos)
	low := unexported(r.Name)
	for _, n := range []string{"Serve" + r.Name, r.Name + "Queue", low + "Topology", low + "Codec", "Client." + r.Name} {
		s.claim(n, fmt.Sprintf("the %s of %s", n, what), r.Pos)
	}
	for _, x := range r.Errors {
		if prev, ok := s.owner["Err"+x.Name]; !ok || !strings.HasPrefix(prev.what, "the declared error") {
			s.claim("Err"+x.Name, "the declared error "+x.Name, x.Pos)
		}
	}
}

// claimUnions claims the interface, branch types and decoder of each union.
func claimUnions(s *symbols, rec *Record) {
	if isUnionRecord(rec) {
		s.claim(mirrorName(rec), fmt.Sprintf("the Avro mirror of %s", rec.Name), rec.Pos)
	}
	for _, f := range unionFields(rec) {
		what := fmt.Sprintf("the union of field %s of %s", f.Name, rec.Name)
		s.claim(f.Type.Iface, what, f.Pos)
		s.claim("decode"+f.Type.Iface, what, f.Pos)
		s.claim(unionMirror(f.Type), what, f.Pos)
		s.claim("to"+f.Type.Iface+"Avro", what, f.Pos)
		for _, b := range f.Type.Branches {
			s.claim(f.Type.Iface+branchName(b), what, f.Pos)
		}
	}
}

func claimMessage(s *symbols, m *Message) {
	what := fmt.Sprintf("%s %s", m.Kind, m.Name)
	s.claim(m.Name, what, m.Pos)
	for _, n := range messageNames(m) {
		s.claim(n, fmt.Sprintf("the %s of %s", n, what), m.Pos)
	}
}

// messageNames are the Go names generated for a message besides its type:
// package-level names, unexported helpers and Publisher methods.
func messageNames(m *Message) []string {
	verb := "Publish"
	if m.Kind == Command {
		verb = "Send"
	}
	low := unexported(m.Name)
	return []string{m.Name + "RoutingKey", m.Name + "Queue", "Consume" + m.Name, "Intercept" + m.Name,
		low + "Retry", low + "Topology", low + "ConsumeOptions", low + "Codec",
		"Publisher." + verb + m.Name, "Publisher." + verb + m.Name + "Batch"}
}

// claimHeaders claims one option per header name; a header declared by
// several messages must have one type.
func claimHeaders(s *symbols, dom *Domain) {
	seen := map[string]*Header{}
	for _, m := range dom.Messages {
		for _, h := range m.Headers {
			prev := seen[h.Name]
			if prev == nil {
				seen[h.Name] = h
				s.claim(headerOption(h), fmt.Sprintf("the option of header %s", h.Name), h.Pos)
				continue
			}
			if prev.Type != h.Type {
				s.d.errorf(h.Pos, "header %s is declared as %s at %s and as %s here", h.Name, prev.Type, prev.Pos, h.Type)
			}
		}
	}
}

// headerOption is the name of the typed EnvelopeOption of a header.
func headerOption(h *Header) string { return "Header" + h.GoName }
