package graph

import (
	"fmt"
	"maps"
	"slices"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

// Diff lists what changed from old to next, for a pull-request comment:
// producers and consumers added (+) or removed (-), and fields a consumer
// newly reads (+) or no longer reads (-). One line a change, sorted.
func Diff(old, next *sysgraph.Graph) []string {
	o, n := flatten(old), flatten(next)
	var out []string
	for _, k := range slices.Sorted(maps.Keys(n)) {
		if _, ok := o[k]; !ok {
			out = append(out, "+ "+k+" at "+n[k].Pos)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if _, ok := n[k]; !ok {
			out = append(out, "- "+k+" at "+o[k].Pos)
			continue
		}
		out = append(out, fieldChanges(k, o[k], n[k])...)
	}
	for _, k := range slices.Sorted(maps.Keys(n)) {
		if _, ok := o[k]; !ok {
			out = append(out, fieldChanges(k, sysgraph.Use{}, n[k])...)
		}
	}
	return out
}

// flatten keys every use of g as "service role domain.Message" (a
// consumer's with its queue), merging a use's positions into its first.
func flatten(g *sysgraph.Graph) map[string]sysgraph.Use {
	out := map[string]sysgraph.Use{}
	for _, s := range g.Services {
		add := func(role string, uses []sysgraph.Use) {
			for _, u := range uses {
				k := fmt.Sprintf("%s %s %s %s", s.Name, role, u.Kind, qualified(u))
				if u.Queue != "" {
					k += " (queue " + u.Queue + ")"
				}
				if prev, ok := out[k]; ok {
					u = mergeReads(prev, u)
				}
				out[k] = u
			}
		}
		add(rolePublishes, s.Publishes)
		add(roleSends, s.Sends)
		add(roleCalls, s.Calls)
		add(roleConsumes, s.Consumes)
		add(roleServes, s.Serves)
	}
	return out
}

// mergeReads is a with b's field reads added.
func mergeReads(a, b sysgraph.Use) sysgraph.Use {
	a.Fields = append(slices.Clone(a.Fields), b.Fields...)
	if b.AllFields && !a.AllFields {
		a.AllFields, a.Why = true, b.Why
	}
	return a
}

// fieldChanges lists the fields next reads that old did not, and back.
func fieldChanges(key string, old, next sysgraph.Use) []string {
	var out []string
	if next.AllFields && !old.AllFields {
		out = append(out, fmt.Sprintf("+ %s reads every field: %s", key, next.Why))
	}
	if old.AllFields && !next.AllFields {
		out = append(out, fmt.Sprintf("- %s no longer reads every field", key))
	}
	was, now := readSet(old), readSet(next)
	for _, f := range slices.Sorted(maps.Keys(now)) {
		if _, ok := was[f]; !ok {
			out = append(out, fmt.Sprintf("+ %s reads %s at %s", key, f, now[f]))
		}
	}
	for _, f := range slices.Sorted(maps.Keys(was)) {
		if _, ok := now[f]; !ok {
			out = append(out, fmt.Sprintf("- %s no longer reads %s", key, f))
		}
	}
	return out
}

// readSet maps each field u reads to its first position.
func readSet(u sysgraph.Use) map[string]string {
	out := map[string]string{}
	for _, f := range u.Fields {
		if _, ok := out[f.Field]; !ok && len(f.Pos) > 0 {
			out[f.Field] = f.Pos[0]
		}
	}
	return out
}
