package main

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// The layout, in SVG user units: a column of contender names, then one
// panel of bars per metric. Each scenario's bars share the scale of that
// scenario's largest value, so scenarios of very different rates all read.
const (
	width      = 960
	labelWidth = 230
	panelWidth = 330
	panelGap   = 35
	rowHeight  = 18
	barHeight  = 12
	headHeight = 22
	groupGap   = 10
	topMargin  = 78
)

// kind is who a contender is: the colour of its bars.
type kind struct{ name, colour string }

var (
	kindRaw       = kind{"raw amqp091-go", "#8c8c8c"}
	kindRuntime   = kind{"acemq (the runtime)", "#1f6fb4"}
	kindWatermill = kind{"Watermill", "#e8832a"}
)

// kindOf tells the contenders apart by the names the harness gives them.
func kindOf(contender string) kind {
	switch {
	case strings.HasPrefix(contender, "raw"):
		return kindRaw
	case strings.Contains(strings.ToLower(contender), "watermill"):
		return kindWatermill
	}
	return kindRuntime
}

// metric is one panel: which value it draws and how it is labelled.
type metric struct {
	id, title string
	value     func(contenderResult) float64
	format    string
}

var metrics = []metric{
	{"msg_per_s", "median msg/s (longer is better)", func(c contenderResult) float64 { return c.rate }, "%.0f"},
	{"cpu_us_per_msg", "median cpu-µs per message (shorter is better)", func(c contenderResult) float64 { return c.cpuPerMs }, "%.1f"},
}

// svgWriter writes the plot's elements, keeping the first write error.
type svgWriter struct {
	w   *bufio.Writer
	err error
}

func (s *svgWriter) printf(format string, args ...any) {
	if s.err == nil {
		_, s.err = fmt.Fprintf(s.w, format, args...)
	}
}

// text writes a text element with its content escaped.
func (s *svgWriter) text(x, y float64, attrs, content string) {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(content))
	if attrs != "" {
		attrs = " " + attrs
	}
	s.printf(`<text x="%.1f" y="%.1f"%s>%s</text>`+"\n", x, y, attrs, b.String())
}

// attr escapes v for an attribute value.
func attr(v string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(v))
	return b.String()
}

// writeSVG draws groups: a title, a legend, the two panels' headings, then
// one block per scenario with a row per contender.
func writeSVG(w io.Writer, title string, groups []scenarioResults) error {
	s := &svgWriter{w: bufio.NewWriter(w)}
	s.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		width, height(groups), width, height(groups))
	s.printf(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	s.text(10, 22, `font-size="16" font-weight="bold"`, title)
	s.legend()
	for i, m := range metrics {
		s.text(panelX(i), topMargin-10, `font-weight="bold"`, m.title)
	}
	y := float64(topMargin)
	for _, g := range groups {
		y = s.group(g, y)
	}
	s.printf("</svg>\n")
	if s.err != nil {
		return s.err
	}
	return s.w.Flush()
}

// height is the SVG's height for groups.
func height(groups []scenarioResults) int {
	h := topMargin + 10
	for _, g := range groups {
		h += headHeight + len(g.contenders)*rowHeight + groupGap
	}
	return h
}

// panelX is where panel i's bars start.
func panelX(i int) float64 { return float64(labelWidth + i*(panelWidth+panelGap)) }

// legend names the three colours.
func (s *svgWriter) legend() {
	x := 10.0
	for _, k := range []kind{kindRuntime, kindRaw, kindWatermill} {
		s.printf(`<rect x="%.1f" y="34" width="12" height="12" fill="%s"/>`+"\n", x, k.colour)
		s.text(x+16, 44, "", k.name)
		x += 30 + float64(7*len(k.name))
	}
}

// group draws one scenario's block from y and returns where the next starts.
func (s *svgWriter) group(g scenarioResults, y float64) float64 {
	s.printf(`<line x1="10" y1="%.1f" x2="%d" y2="%.1f" stroke="#dddddd"/>`+"\n", y+2, width-10, y+2)
	s.text(10, y+16, `font-weight="bold"`, g.name)
	y += headHeight
	for _, c := range g.contenders {
		s.text(20, y+barHeight-1, "", c.name)
		for i, m := range metrics {
			s.bar(g, c, m, panelX(i), y)
		}
		y += rowHeight
	}
	return y + groupGap
}

// bar draws c's bar of metric m, scaled to the largest value of m in g,
// with its value at its end.
func (s *svgWriter) bar(g scenarioResults, c contenderResult, m metric, x, y float64) {
	top := 0.0
	for _, o := range g.contenders {
		top = max(top, m.value(o))
	}
	v, w := m.value(c), 0.0
	if top > 0 {
		w = max(panelWidth*0.8*v/top, 1)
	}
	s.printf(`<rect class="bar" data-metric="%s" data-scenario="%s" data-contender="%s" x="%.1f" y="%.1f" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>`+"\n",
		m.id, attr(g.name), attr(c.name), x, y, w, barHeight, kindOf(c.name).colour,
		attr(fmt.Sprintf("%s, %s: "+m.format+" (median of %d)", g.name, c.name, v, c.reps)))
	s.text(x+w+4, y+barHeight-1, `fill="#333333"`, fmt.Sprintf(m.format, v))
}
