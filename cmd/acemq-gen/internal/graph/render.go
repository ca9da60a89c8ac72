package graph

import (
	"fmt"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

// edge is one arrow of a drawn graph: a service and a message, the role
// naming it, and whether it points from the message to the service.
type edge struct {
	service, message, role string
	inbound                bool
}

// edges lists g's arrows, one per service, role and message.
func edges(g *sysgraph.Graph) []edge {
	var out []edge
	seen := map[edge]bool{}
	for _, s := range g.Services {
		for _, l := range []struct {
			role    string
			uses    []sysgraph.Use
			inbound bool
		}{{rolePublishes, s.Publishes, false}, {roleSends, s.Sends, false}, {roleCalls, s.Calls, false},
			{roleConsumes, s.Consumes, true}, {roleServes, s.Serves, true}} {
			for _, u := range l.uses {
				e := edge{service: s.Name, message: qualified(u), role: l.role, inbound: l.inbound}
				if !seen[e] {
					seen[e] = true
					out = append(out, e)
				}
			}
		}
	}
	return out
}

// WriteDOT draws g for Graphviz: services as boxes, messages as ellipses.
func WriteDOT(w io.Writer, g *sysgraph.Graph) error {
	var b strings.Builder
	b.WriteString("digraph acemq {\n  rankdir=LR;\n")
	for _, e := range edges(g) {
		from, to := fmt.Sprintf("%q", "service "+e.service), fmt.Sprintf("%q", e.message)
		if e.inbound {
			from, to = to, from
		}
		fmt.Fprintf(&b, "  %q [shape=box,label=%q];\n  %q [shape=ellipse];\n  %s -> %s [label=%q];\n",
			"service "+e.service, e.service, e.message, from, to, e.role)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMermaid draws g as a Mermaid flowchart.
func WriteMermaid(w io.Writer, g *sysgraph.Graph) error {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	ids := map[string]string{}
	id := func(kind, name string) string {
		key := kind + " " + name
		if ids[key] == "" {
			ids[key] = fmt.Sprintf("%s%d", kind[:1], len(ids))
			shape := `%s["%s"]`
			if kind == "message" {
				shape = `%s(["%s"])`
			}
			fmt.Fprintf(&b, "  "+shape+"\n", ids[key], strings.ReplaceAll(name, `"`, "#quot;"))
		}
		return ids[key]
	}
	for _, e := range edges(g) {
		from, to := id("service", e.service), id("message", e.message)
		if e.inbound {
			from, to = to, from
		}
		fmt.Fprintf(&b, "  %s -- %s --> %s\n", from, e.role, to)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
