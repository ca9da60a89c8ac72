package graph

import (
	"cmp"
	"go/types"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

// maxDepth bounds the nesting of dotted field names (a recursive record).
const maxDepth = 8

// graph assembles the findings of every module into the system graph.
func (a *analysis) graph() *sysgraph.Graph {
	svcs := map[[2]string]*sysgraph.Service{}
	for _, mp := range slices.Sorted(maps.Keys(a.mods)) {
		m := a.mods[mp]
		def, v := m.defaultService(), a.view(m)
		for _, u := range m.uses {
			name := cmp.Or(u.service, def)
			s := svcs[[2]string{name, m.path}]
			if s == nil {
				s = &sysgraph.Service{Name: name, Module: m.path}
				svcs[[2]string{name, m.path}] = s
			}
			a.place(s, v, u)
		}
	}
	g := &sysgraph.Graph{Version: sysgraph.Version}
	for _, k := range slices.SortedFunc(maps.Keys(svcs), compareKeys) {
		g.Services = append(g.Services, sortUses(*svcs[k]))
	}
	return g
}

func compareKeys(x, y [2]string) int {
	return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1]))
}

// defaultService is the service a module's uses without a service constant
// belong to: the one name its code gives, else the module path's last
// element.
func (m *module) defaultService() string {
	var names []string
	for _, u := range m.uses {
		if u.service != "" && !slices.Contains(names, u.service) {
			names = append(names, u.service)
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return path.Base(m.path)
}

// place adds u to s's list for its role, a consumer's with its queue and
// the fields the module reads.
func (a *analysis) place(s *sysgraph.Service, m *module, u rawUse) {
	use := u.use
	switch u.role {
	case rolePublishes:
		s.Publishes = append(s.Publishes, use)
	case roleSends:
		s.Sends = append(s.Sends, use)
	case roleCalls:
		s.Calls = append(s.Calls, use)
	default:
		use.Queue = u.gen.queue(use.Message, use.Kind, s.Name)
		use.Fields, use.AllFields, use.Why = a.fields(m, u.payload)
		if u.role == roleServes {
			s.Serves = append(s.Serves, use)
		} else {
			s.Consumes = append(s.Consumes, use)
		}
	}
}

// sortUses orders every list by domain, message and position, without
// duplicates.
func sortUses(s sysgraph.Service) sysgraph.Service {
	for _, l := range []*[]sysgraph.Use{&s.Publishes, &s.Sends, &s.Calls, &s.Consumes, &s.Serves} {
		slices.SortFunc(*l, func(x, y sysgraph.Use) int {
			return cmp.Or(cmp.Compare(x.Domain, y.Domain), cmp.Compare(x.Message, y.Message), cmp.Compare(x.Pos, y.Pos))
		})
		*l = slices.CompactFunc(*l, func(x, y sysgraph.Use) bool {
			return x.Domain == y.Domain && x.Message == y.Message && x.Pos == y.Pos
		})
	}
	return s
}

// fields are the fields of record the module reads, nested ones dotted;
// all is true, with why, when the record itself escapes.
func (a *analysis) fields(m *module, record string) (reads []sysgraph.FieldRead, all bool, why string) {
	if es := m.escapes[record]; len(es) > 0 {
		var whys []string
		for _, e := range es {
			whys = append(whys, e.String())
		}
		all, why = true, strings.Join(whys, "; ")
	}
	n := a.records[record]
	if n == nil {
		return nil, all, why
	}
	acc := map[string][]string{}
	a.collect(m, n, "", acc, 0)
	for _, f := range slices.Sorted(maps.Keys(acc)) {
		reads = append(reads, sysgraph.FieldRead{Field: f, Pos: slices.Sorted(slices.Values(acc[f]))})
	}
	return reads, all, why
}

// collect adds to acc the fields of n the module reads, each prefixed,
// and those of the records n's fields hold; a nested record that escapes
// counts every one of its fields read, at the escape.
func (a *analysis) collect(m *module, n *types.Named, prefix string, acc map[string][]string, depth int) {
	st, ok := n.Underlying().(*types.Struct)
	if !ok || depth > maxDepth {
		return
	}
	key := n.Obj().Pkg().Path() + "." + n.Obj().Name()
	for i := range st.NumFields() {
		name := prefix + wireName(st, i)
		acc[name] = appendNew(acc[name], m.reads[key][wireName(st, i)]...)
		if depth > 0 {
			for _, e := range m.escapes[key] {
				acc[name] = appendNew(acc[name], e.pos)
			}
		}
		if len(acc[name]) == 0 {
			delete(acc, name)
		}
		for _, inner := range a.directRecords(st.Field(i).Type()) {
			a.collect(m, inner, name+".", acc, depth+1)
		}
	}
}

// directRecords are the generated records t holds without going through
// another named type (through pointers, slices, arrays and maps).
func (a *analysis) directRecords(t types.Type) []*types.Named {
	switch x := types.Unalias(t).(type) {
	case *types.Named:
		if _, ok := a.recordKey(x); ok {
			return []*types.Named{x}
		}
	case *types.Pointer:
		return a.directRecords(x.Elem())
	case *types.Slice:
		return a.directRecords(x.Elem())
	case *types.Array:
		return a.directRecords(x.Elem())
	case *types.Map:
		return a.directRecords(x.Elem())
	}
	return nil
}

func appendNew(list []string, items ...string) []string {
	for _, it := range items {
		if !slices.Contains(list, it) {
			list = append(list, it)
		}
	}
	return list
}
