package generator

import (
	"strings"
	"testing"
	"unicode"
)

// TestDiagnosticsNeverPrintRawControlCharacters generates a contract whose
// names hold NUL, a backquote, a quote, ESC, a bidi override and a newline:
// every bad name is a `file:line:col: message` diagnostic of the one run,
// and no diagnostic holds a raw control character or a line that could pass
// for another diagnostic.
func TestDiagnosticsNeverPrintRawControlCharacters(t *testing.T) {
	src := "acemq: 1\ndomain: shop\ntypes:\n  \"Bad`Type\": {fields: {x: string}}\n" +
		"  Colour: {enum: [\"red\", \"gr\\\"een\", \"bl\\x00ue\"]}\nevents:\n  \"Order\\x00Placed\\e[2J\":\n" +
		"    routing-key: \"a`b\\\"c\\x00\\u202e\\nshop.acemq.yaml:1:1: forged\"\n    headers:\n      \"x-te`n\\\"ant\\x00\": {type: string}\n" +
		"    fields:\n      \"a`b\": string\n      \"q\\\"q\": string\n      ok: Colour\n"
	res := Generate([]Source{{Path: "shop.acemq.yaml", Data: []byte(src)}})
	out := stderrOf(res.Diagnostics)
	for _, want := range []string{"4:3: bad type name", "5:26: enum Colour: bad symbol", "5:37: enum Colour: bad symbol",
		"7:3: bad event name", "7:3: event Order\\x00Placed\\x1b[2J: bad routing key", "10:7: bad header name", "12:7: bad field name", "13:7: bad field name"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q among:\n%s", want, out)
		}
	}
	if strings.ContainsFunc(out, func(r rune) bool { return r != '\n' && r != '\t' && !unicode.IsPrint(r) }) {
		t.Errorf("raw control character in:\n%q", out)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, "shop.acemq.yaml:") || strings.Contains(l, "forged") && strings.HasPrefix(l, "shop.acemq.yaml:1:1") {
			t.Errorf("line %q is not a diagnostic of its own", l)
		}
	}
}

// TestAsyncAPIWithABadServerNamesNoMadeUpPosition: a library caller of
// AsyncAPI with a server URL that is not AMQP gets a diagnostic without the
// made-up position acemq-gen:0:0 (issue 23 item 8, the library side).
func TestAsyncAPIWithABadServerNamesNoMadeUpPosition(t *testing.T) {
	src := "acemq: 1\ndomain: shop\nevents:\n  Placed:\n    fields:\n      id: string\n"
	res := AsyncAPI([]Source{{Path: "shop.acemq.yaml", Data: []byte(src)}}, AsyncAPIServer("prod", "http://x"))
	out := stderrOf(res.Diagnostics)
	if out == "" || strings.Contains(out, ":0:0") || !strings.HasPrefix(out, "acemq-gen: ") {
		t.Fatalf("diagnostics:\n%s", out)
	}
}
