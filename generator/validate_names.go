package generator

import "fmt"

// symbols records which part of a contract claims each generated Go name.
type symbols struct {
	d     *diags
	owner map[string]symbol
}

type symbol struct {
	what string
	pos  Pos
}

// generatedNames are the package-level names every domain package declares.
var generatedNames = []string{"Exchange", "Publisher", "NewPublisher", "Topology", "DeclareTopology", "newTopology"}

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
	for _, n := range generatedNames {
		s.claim(n, "the generated "+n, dom.Pos)
	}
	for _, rec := range dom.Records {
		s.claim(rec.Name, fmt.Sprintf("type %s", rec.Name), rec.Pos)
	}
	for _, m := range dom.Messages {
		claimMessage(s, m)
	}
	claimHeaders(s, dom)
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
	return []string{m.Name + "RoutingKey", m.Name + "Queue", "Consume" + m.Name,
		low + "Retry", low + "Topology", low + "ConsumeOptions",
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
