package generator

import (
	"slices"
	"strings"
)

// checkImportCycles refuses packages that use each other's types, directly
// or through others: Go cannot compile an import cycle.
func checkImportCycles(m *Model, d *diags) {
	deps := map[*domain][]*domain{}
	for _, dom := range m.Domains {
		deps[dom] = usedPackages(dom)
	}
	state := map[*domain]int{}
	for _, dom := range m.Domains {
		if cycle := findCycle(dom, deps, state, nil); cycle != nil {
			reportImportCycle(cycle, d)
			return // the walk's state is spent; one cycle is enough to fix first
		}
	}
}

// usedPackages returns the other packages whose types dom's records use.
func usedPackages(dom *domain) []*domain {
	var out []*domain
	for _, rec := range allRecords(dom) {
		for _, f := range rec.Fields {
			for _, owner := range typeOwners(f.Type) {
				if owner != dom && !slices.Contains(out, owner) {
					out = append(out, owner)
				}
			}
		}
	}
	return out
}

func typeOwners(t *Type) []*domain {
	if t == nil {
		return nil
	}
	var out []*domain
	if t.Kind == Named && t.Record.Owner != nil {
		out = append(out, t.Record.Owner)
	}
	for _, b := range t.Branches {
		out = append(out, typeOwners(b)...)
	}
	return append(out, typeOwners(t.Elem)...)
}

// findCycle walks the package graph depth first; it returns the packages of
// the first cycle through dom, or nil.
func findCycle(dom *domain, deps map[*domain][]*domain, state map[*domain]int, path []*domain) []*domain {
	switch state[dom] {
	case 1:
		return append(path[slices.Index(path, dom):], dom)
	case 2:
		return nil
	}
	state[dom] = 1
	for _, next := range deps[dom] {
		if c := findCycle(next, deps, state, append(path, dom)); c != nil {
			return c
		}
	}
	state[dom] = 2
	return nil
}

func reportImportCycle(cycle []*domain, d *diags) {
	var names []string
	for _, dom := range cycle {
		names = append(names, dom.Package)
	}
	d.errorf(cycle[0].Pos, "packages %s use each other's types, an import cycle Go cannot compile; move the shared types into a type library",
		strings.Join(names, " → "))
}
