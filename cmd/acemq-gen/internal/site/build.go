package site

import (
	"slices"

	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// newSite builds the view model of in: domains, their types and messages,
// the topology, then services.
func newSite(in Input) (*site, error) {
	s := &site{messages: map[string]*messageView{}, types: map[string]*typeView{}, HasUsage: in.Usage != nil}
	for _, d := range in.Domains {
		s.addDomain(d)
	}
	for _, e := range in.Entries {
		s.addMessage(e, in.History)
	}
	t, err := newTopology(in.Entries, in.Usage)
	if err != nil {
		return nil, err
	}
	s.topo = t
	s.addServices(in.Usage)
	for _, d := range s.Domains {
		s.describeDomain(d)
	}
	return s, nil
}

func (s *site) addDomain(d generator.CatalogDomain) {
	dv := &domainView{CatalogDomain: d, Path: "domains/" + slug(d.Name) + ".html"}
	for _, t := range d.Types {
		tv := &typeView{Type: t, Path: typePath(t), DomainPath: dv.Path}
		dv.Types = append(dv.Types, tv)
		s.types[t.Domain+"."+t.Name] = tv
	}
	s.Domains = append(s.Domains, dv)
}

func typePath(t generator.Type) string {
	return "types/" + slug(t.Domain) + "/" + slug(t.Name) + ".html"
}

// domain is the view of the domain named name, made when no contract
// declared it (an entry of a kind the catalog learns later).
func (s *site) domain(name string) *domainView {
	for _, d := range s.Domains {
		if d.Name == name {
			return d
		}
	}
	s.addDomain(generator.CatalogDomain{Name: name})
	return s.Domains[len(s.Domains)-1]
}

func (s *site) addMessage(e generator.Entry, h History) {
	d := s.domain(e.Domain)
	m := &messageView{Entry: e, DomainPath: d.Path, Versions: h[msgKey(e.Domain, e.Name)],
		Path: "messages/" + slug(e.Domain) + "/" + slug(e.Kind) + "." + slug(e.Name) + ".html"}
	if e.Kind == "event" || e.Kind == "command" {
		p := e.Retry.Policy()
		m.Policy = p.String()
		for _, w := range p.Schedule() {
			m.Schedule = append(m.Schedule, retryWait{Wait: w})
		}
	}
	if e.Payload != nil {
		m.Avro = indentJSON(e.Payload.Avro)
		m.Fields = s.fields(e.Payload.Fields, "../../")
	}
	if e.Response != nil {
		m.ResponseFields = s.fields(e.Response.Fields, "../../")
	}
	s.messages[msgKey(e.Domain, e.Name)] = m
	d.Messages = append(d.Messages, m)
	i := slices.IndexFunc(d.Groups, func(g kindGroup) bool { return g.Kind == e.Kind })
	if i < 0 {
		d.Groups = append(d.Groups, kindGroup{Kind: e.Kind, Title: kindTitle(e.Kind)})
		i = len(d.Groups) - 1
	}
	d.Groups[i].Messages = append(d.Groups[i].Messages, m)
	s.markUses(m)
}

// markUses lists m under each named type its payload refers to.
func (s *site) markUses(m *messageView) {
	for _, t := range []*generator.Type{m.Payload, m.Response} {
		if t == nil {
			continue
		}
		for _, name := range namedIn(t.Fields) {
			if tv := s.types[name]; tv != nil && !slices.Contains(tv.UsedBy, m) {
				tv.UsedBy = append(tv.UsedBy, m)
			}
		}
	}
}

// namedIn is the domain.Name of every named type fields refer to.
func namedIn(fields []generator.Field) []string {
	var out []string
	var walk func(t generator.FieldType)
	walk = func(t generator.FieldType) {
		if t.Kind == "named" {
			out = append(out, t.Domain+"."+t.Name)
		}
		if t.Elem != nil {
			walk(*t.Elem)
		}
		for _, b := range t.Branches {
			walk(b)
		}
	}
	for _, f := range fields {
		walk(f.Type)
	}
	return out
}

// describeDomain fills d's type tables, queues and diagram once every
// message and service is known.
func (s *site) describeDomain(d *domainView) {
	for _, t := range d.Types {
		t.Fields = s.fields(t.Type.Fields, "../../")
	}
	d.Queues = s.topo.domainQueues(d, s)
	for _, m := range d.Messages {
		m.Queues = s.topo.messageQueues(m.Entry, s)
		for i, w := range m.Schedule {
			for _, q := range m.Queues {
				if r := acemq.RungQueue(q.Name, w.Wait); slices.Contains(q.Rungs, r) {
					m.Schedule[i].Rungs = append(m.Schedule[i].Rungs, r)
				}
			}
		}
	}
	d.Diagram = diagram(d, s)
}
