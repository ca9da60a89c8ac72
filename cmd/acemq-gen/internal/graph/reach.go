package graph

import (
	"maps"
	"slices"
)

// view is what a module's consumers read: the reads and escapes of its own
// code and of every loaded module its packages import (a helper in a
// shared library module reads for them), the latter's positions prefixed
// with their module path.
func (a *analysis) view(m *module) *module {
	v := &module{path: m.path, dir: m.dir, reads: map[string]map[string][]string{}, escapes: map[string][]escapeAt{}}
	for _, o := range a.reach(m) {
		prefix := ""
		if o != m {
			prefix = o.path + "/"
		}
		for rec, fields := range o.reads {
			for f, ps := range fields {
				for _, p := range ps {
					v.read(rec, f, prefix+p)
				}
			}
		}
		for rec, es := range o.escapes {
			for _, e := range es {
				v.escape(rec, e.why, prefix+e.pos)
			}
		}
	}
	return v
}

// reach lists m and the loaded modules m's packages import, directly or
// through other loaded packages, in path order; a generated package does
// not bring its module's code in.
func (a *analysis) reach(m *module) []*module {
	seen := map[string]bool{}
	var work []string
	for p, pm := range a.pkgMod {
		if pm == m {
			work = append(work, p)
		}
	}
	mods := map[string]*module{m.path: m}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		if pm := a.pkgMod[p]; pm != nil && a.gens[p] == nil {
			mods[pm.path] = pm
			work = append(work, a.imports[p]...)
		}
	}
	var out []*module
	for _, k := range slices.Sorted(maps.Keys(mods)) {
		out = append(out, mods[k])
	}
	return out
}
