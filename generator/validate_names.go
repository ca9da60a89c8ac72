package generator

// symbols records which part of a contract claims each generated Go name.
type symbols struct {
	d     *diags
	owner map[string]symbol
	lost  map[string]bool // the parts that lost a name to an earlier claim
}

type symbol struct {
	what string
	pos  Pos
}

// claim records that n becomes its Go name, reporting a collision with an
// earlier claim. A method of a type whose part lost the type's name is not
// claimed: the type's collision is the one to fix.
func (s *symbols) claim(n goName) {
	if n.recv != "" && s.lost[n.recv] {
		return
	}
	if prev, taken := s.owner[n.name]; taken {
		s.d.errorf(n.pos, "Go-name collision: %s%s and %s both become %s", prev.what, elsewhere(prev.pos, n.pos), n.what, n.name)
		s.lost[n.what] = true
		return
	}
	s.owner[n.name] = symbol{what: n.what, pos: n.pos}
}

// elsewhere is " (at p)" when p is in another file than here, the
// position a diagnostic at here needs to point at p: a collision across
// the files of a split domain.
func elsewhere(p, here Pos) string {
	if p.File == "" || p.File == here.File {
		return ""
	}
	return " (at " + p.String() + ")"
}

// checkGoNames claims every Go name the domain's package declares, as the
// naming authority lists them.
func checkGoNames(dom *domain, d *diags) {
	s := &symbols{d: d, owner: map[string]symbol{}, lost: map[string]bool{}}
	for _, n := range domainNames(dom) {
		s.claim(n)
	}
	checkHeaderTypes(dom, d)
}

// checkHeaderTypes requires a header declared by several messages to have
// one type, since it has one option.
func checkHeaderTypes(dom *domain, d *diags) {
	seen := map[string]*header{}
	for _, m := range payloads(dom) {
		for _, h := range m.Headers {
			prev := seen[h.Name]
			if prev == nil {
				seen[h.Name] = h
				continue
			}
			if prev.Type != h.Type {
				d.errorf(h.Pos, "header %s is declared as %s at %s and as %s here", h.Name, prev.Type, prev.Pos, h.Type)
			}
		}
	}
}

// checkFields checks the wire names of a record's fields and that their Go
// names neither collide with each other nor with the methods the naming
// authority gives the type (codec is its message's, "" for a type or an RPC's half).
func checkFields(rec *recordModel, codec string, d *diags) {
	methods := map[string]bool{}
	for _, m := range typeMethods(rec, codec) {
		methods[m] = true
	}
	seen := map[string]*field{}
	for _, f := range rec.Fields {
		if !fieldNameRE.MatchString(f.Name) {
			d.errorf(f.Pos, "bad field name %q: an Avro name (letters, digits and '_', not starting with a digit)", f.Name)
			continue
		}
		if other := seen[f.GoName]; other != nil {
			d.errorf(f.Pos, "Go-name collision: fields %q and %q of %s both become the Go field %s", other.Name, f.Name, rec.Name, f.GoName)
		}
		if methods[f.GoName] {
			d.errorf(f.Pos, "Go-name collision: field %q of %s becomes %s, the name of a generated method", f.Name, rec.Name, f.GoName)
		}
		seen[f.GoName] = f
	}
}
