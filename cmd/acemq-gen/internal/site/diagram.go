package site

import (
	"fmt"
	"html"
	"html/template"
	"strings"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// The topology diagram of a domain: a deterministic layered layout, left to
// right: publishing services, exchanges, queues, then each queue's
// consuming services and where it sets messages aside (retry rungs, the
// dead-letter and parked queues), stacked in the queue's band.

const (
	charWidth  = 7.3 // of the diagram's 12px monospace text
	lineH      = 16
	padX       = 8
	padY       = 6
	rowGap     = 10
	minGap     = 80
	labelWidth = 6.7 // of the 11px edge labels
)

// node is one box of the diagram.
type node struct {
	col        int
	lines      []string
	class      string
	x, y, w, h float64
}

// edge is one arrow, with a label near its head.
type edge struct {
	from, to     *node
	label, class string
}

type layout struct {
	nodes []*node
	edges []edge
}

func newNode(col int, class string, lines ...string) *node {
	n := &node{col: col, lines: lines, class: class, h: float64(len(lines))*lineH + 2*padY}
	for _, l := range lines {
		n.w = max(n.w, float64(len([]rune(l)))*charWidth+2*padX)
	}
	return n
}

// diagram is d's topology as an inline SVG.
func diagram(d *domainView, s *site) template.HTML {
	l := &layout{}
	exchanges := l.exchanges(d)
	l.bands(d, exchanges)
	l.publishers(d, s, exchanges)
	if len(l.nodes) == 0 {
		return ""
	}
	l.place()
	return template.HTML(l.svg(d)) // every text in it is escaped by svg
}

// exchanges adds the domain's topic exchange and, for RPCs, the default
// exchange their requests go through.
func (l *layout) exchanges(d *domainView) map[string]*node {
	out := map[string]*node{}
	for _, m := range d.Messages {
		name := m.Exchange
		label := "exchange " + name + " (topic)"
		if name == "" {
			label = "default exchange (direct)"
		}
		if out[name] == nil {
			out[name] = newNode(1, "exchange", label)
			l.nodes = append(l.nodes, out[name])
		}
	}
	return out
}

// bands adds each queue, bound from its exchange, with its consumers and
// set-aside queues in the next column.
func (l *layout) bands(d *domainView, exchanges map[string]*node) {
	for _, q := range d.Queues {
		qn := newNode(2, "queue", "queue "+q.Name, q.Type)
		l.nodes = append(l.nodes, qn)
		for _, b := range q.Bindings {
			if x := exchanges[b.Exchange]; x != nil {
				l.edges = append(l.edges, edge{x, qn, b.Key, "binding"})
			}
		}
		if x := exchanges[""]; x != nil && len(q.Bindings) == 0 {
			l.edges = append(l.edges, edge{x, qn, q.Name, "binding"})
		}
		for _, c := range q.Consumers {
			l.link(qn, newNode(3, "service", append([]string{"service " + c.Name}, readsLines(d, c, q.Name)...)...), "consumed by", "consume")
		}
		for _, r := range q.Rungs {
			l.link(qn, newNode(3, "rung", "retry rung "+r, "via "+acemq.RetryExchange), "retry", "retry")
		}
		if q.DeadLetter != "" {
			l.link(qn, newNode(3, "deadletter", "dead-letter queue "+q.DeadLetter, "via "+acemq.DeadLetterExchange), "dead-letter", "deadletter")
		}
		if q.Parked != "" {
			l.link(qn, newNode(3, "deadletter", "parked queue "+q.Parked, "via "+acemq.DeadLetterExchange), "parked", "deadletter")
		}
	}
}

func (l *layout) link(from, to *node, label, class string) {
	l.nodes = append(l.nodes, to)
	l.edges = append(l.edges, edge{from, to, label, class})
}

// readsLines is what service c's handlers read of the messages of queue,
// wrapped to lines of about 40 characters.
func readsLines(d *domainView, c *serviceView, queue string) []string {
	var out []string
	for _, u := range c.Uses {
		if u.Role != "consumes" && u.Role != "serves" || u.Message == nil || u.Message.Domain != d.Name || consumerQueue(c.Name, u.Use, u.Message.Entry) != queue {
			continue
		}
		out = append(out, wrap(u.Message.Name+" reads: "+u.Reads(), 40)...)
	}
	return out
}

// wrap breaks s at spaces into lines of at most width runes where it can.
func wrap(s string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
			out = append(out, line)
			line = "  " + w
			continue
		}
		line = strings.TrimPrefix(line+" "+w, " ")
	}
	return append(out, line)
}

// publishers adds each service publishing, sending or calling the domain's
// messages, naming them, with an arrow to each exchange they go through.
func (l *layout) publishers(d *domainView, s *site, exchanges map[string]*node) {
	nodes := map[*serviceView]*node{}
	var order []*serviceView
	linked := map[[2]*node]bool{}
	for _, m := range d.Messages {
		for _, u := range m.Uses {
			if u.Role != "publishes" && u.Role != "sends" && u.Role != "calls" {
				continue
			}
			if nodes[u.Service] == nil {
				nodes[u.Service] = newNode(0, "service", "service "+u.Service.Name)
				order = append(order, u.Service)
			}
			n := nodes[u.Service]
			n.lines = append(n.lines, u.Role+" "+m.Name)
			if x := exchanges[m.Exchange]; !linked[[2]*node{n, x}] {
				linked[[2]*node{n, x}] = true
				l.edges = append(l.edges, edge{n, x, "", "publish"})
			}
		}
	}
	for _, sv := range order {
		n := nodes[sv]
		*n = *newNode(0, "service", n.lines...) // sized for its lines
		l.nodes = append(l.nodes, n)
	}
}

// place sets every node's position: columns left to right, each as wide as
// its widest node; queues stack their bands, other columns stack from the
// top.
func (l *layout) place() {
	var widths [4]float64
	for _, n := range l.nodes {
		widths[n.col] = max(widths[n.col], n.w)
	}
	var gaps [4]float64 // room for the labels of the edges into a column
	for _, e := range l.edges {
		gaps[e.to.col] = max(gaps[e.to.col], float64(len([]rune(e.label)))*labelWidth+40)
	}
	x := [4]float64{10}
	for c := 1; c < 4; c++ {
		x[c] = x[c-1] + widths[c-1] + max(gaps[c], minGap)
		if widths[c-1] == 0 {
			x[c] = x[c-1]
		}
	}
	var y [4]float64
	for i := range y {
		y[i] = 10
	}
	for _, n := range l.nodes {
		if n.col == 2 {
			y[2] = max(y[2], y[3]) // a queue's band starts below the last one
			y[3] = y[2]
		}
		n.x, n.y = x[n.col], y[n.col]
		y[n.col] += n.h + rowGap
	}
}

// svg writes the laid-out diagram; every text is escaped.
func (l *layout) svg(d *domainView) string {
	var w, h float64
	for _, n := range l.nodes {
		w, h = max(w, n.x+n.w+10), max(h, n.y+n.h+10)
	}
	var b strings.Builder
	label := fmt.Sprintf("Topology of the %s domain: %d queues", d.Name, len(d.Queues))
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="topology" role="img" aria-label="%s" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">`, esc(label), w, h, w, h)
	fmt.Fprintf(&b, "\n<title>%s</title>\n", esc(label))
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>` + "\n")
	for _, e := range l.edges {
		x1, y1, x2, y2 := e.from.x+e.from.w, e.from.y+e.from.h/2, e.to.x, e.to.y+e.to.h/2
		fmt.Fprintf(&b, `<g class="edge %s"><title>%s</title><path d="M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f" marker-end="url(#arrow)"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text></g>`+"\n",
			e.class, esc(e.label), x1, y1, x1+(x2-x1)/2, y1, x2-(x2-x1)/2, y2, x2, y2, x2-4, y2-4, esc(e.label))
	}
	for _, n := range l.nodes {
		fmt.Fprintf(&b, `<g class="node %s"><title>%s</title><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="4"/>`, n.class, esc(strings.Join(n.lines, " ")), n.x, n.y, n.w, n.h)
		for i, line := range n.lines {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s</text>`, n.x+padX, n.y+padY+float64(i+1)*lineH-4, esc(line))
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>")
	return b.String()
}

// esc escapes s for the SVG's text and attributes; a control character,
// which XML cannot hold, becomes U+FFFD.
func esc(s string) string {
	return html.EscapeString(strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' || r == 0x7f {
			return '\uFFFD'
		}
		return r
	}, s))
}
