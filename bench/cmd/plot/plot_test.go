package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
)

// smallCSV is what cmd/sidebyside writes, for two scenarios and three
// repetitions of each contender.
const smallCSV = `scenario,contender,repetition,messages,seconds,msg_per_s,cpu_us_per_msg,p50_ms,p99_ms
stream,raw,1,100,0.1,1000.0,30.00,,
stream,acemq SendAsync,1,100,0.1,900.0,40.00,,
stream,raw,2,100,0.1,3000.0,10.00,,
stream,acemq SendAsync,2,100,0.1,1100.0,20.00,,
stream,raw,3,100,0.1,2000.0,20.00,,
stream,acemq SendAsync,3,100,0.1,1000.0,30.00,,
wm-consume,raw,1,100,0.1,500.0,5.00,,
wm-consume,watermill,1,100,0.1,50.0,50.00,,
wm-consume,acemq Consume 1 worker,1,100,0.1,400.0,6.00,,
`

func TestPlotReadsTheHarnessCSVIntoMediansInOrder(t *testing.T) {
	groups, err := readResults(strings.NewReader(smallCSV))
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 2 || groups[0].name != "stream" || groups[1].name != "wm-consume" {
		t.Fatalf("scenarios = %+v, want stream then wm-consume", groups)
	}
	raw, acemq := groups[0].contenders[0], groups[0].contenders[1]
	if raw.name != "raw" || raw.rate != 2000 || raw.cpuPerMs != 20 || raw.reps != 3 {
		t.Errorf("stream raw = %+v, want the medians 2000 msg/s and 20 cpu-µs of 3 repetitions", raw)
	}
	if acemq.name != "acemq SendAsync" || acemq.rate != 1000 || acemq.cpuPerMs != 30 {
		t.Errorf("stream acemq = %+v, want the medians 1000 msg/s and 30 cpu-µs", acemq)
	}
	if len(groups[1].contenders) != 3 {
		t.Errorf("wm-consume contenders = %+v, want raw, watermill, acemq", groups[1].contenders)
	}
}

// bar is a bar of the SVG, as its data attributes name it.
type bar struct{ metric, scenario, contender, fill string }

// bars parses svg as XML (failing on anything that is not well formed) and
// returns its bars.
func bars(t *testing.T, svg []byte) []bar {
	t.Helper()
	var out []bar
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("the SVG is not valid XML: %v", err)
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "rect" && attrOf(el, "class") == "bar" {
			out = append(out, bar{attrOf(el, "data-metric"), attrOf(el, "data-scenario"), attrOf(el, "data-contender"), attrOf(el, "fill")})
		}
	}
}

func attrOf(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func TestPlotDrawsABarPerRowAndMetricInValidXML(t *testing.T) {
	groups, err := readResults(strings.NewReader(smallCSV))
	if err != nil {
		t.Fatal(err)
	}
	var svg bytes.Buffer
	if err := writeSVG(&svg, `runtime <beside> raw & "Watermill"`, groups); err != nil {
		t.Fatal(err)
	}
	got := bars(t, svg.Bytes())
	if len(got) != 2*5 {
		t.Fatalf("%d bars, want one per metric for each of the 5 contender rows: %+v", len(got), got)
	}
	want := map[bar]bool{}
	for _, g := range groups {
		for _, c := range g.contenders {
			for _, m := range metrics {
				want[bar{m.id, g.name, c.name, kindOf(c.name).colour}] = true
			}
		}
	}
	for _, b := range got {
		if !want[b] {
			t.Errorf("unexpected bar %+v", b)
		}
		delete(want, b)
	}
	if len(want) > 0 {
		t.Errorf("missing bars %v", want)
	}
}

func TestPlotColoursTheRuntimeRawAndWatermillApart(t *testing.T) {
	for name, want := range map[string]kind{"raw": kindRaw, "watermill Forwarder": kindWatermill,
		"acemq outbox.Relay": kindRuntime, "acemq 16×Send": kindRuntime} {
		if got := kindOf(name); got != want {
			t.Errorf("kindOf(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestPlotRefusesACSVWithoutItsColumnsOrRows(t *testing.T) {
	for name, in := range map[string]string{
		"no rows":       "scenario,contender,msg_per_s,cpu_us_per_msg\n",
		"no cpu column": "scenario,contender,msg_per_s\ns,raw,1\n",
		"not a number":  "scenario,contender,msg_per_s,cpu_us_per_msg\ns,raw,fast,1\n",
	} {
		if _, err := readResults(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
