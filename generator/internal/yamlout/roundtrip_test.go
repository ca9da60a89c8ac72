package yamlout

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
)

// hostileDocs are doc strings YAML writers get wrong: a first line indented
// more than the next, common indentation, NEL, LS, PS, control characters,
// a tab-first line, CRLF, trailing blanks and line breaks, YAML's own
// indicators and words.
var hostileDocs = []string{
	"  indented first\nthen not", "  both\n  indented", "a\u0085b\u2028c\u2029d", "nul\x00 bell\a esc\x1b del\x7f",
	"\tTab first\nline", "crlf\r\nline", "trailing  \nblanks\t", "two\n\n", "none\nat end", "\n\nleading breaks",
	"\n", "", " ", "- item", "key: value", "# comment", "yes", "Off", "~", "null", "1.5", "0x10", "2026-01-02",
	"3.0.0", "a #b", "ends:", "| block", "> folded", "'single'", "\"double\"", "\ufeffbom", "\u202erlo", "\U0001F600 emoji",
	"--- doc", "...\n---", "  \n  ", "line\n   \nspaces-only line", "<<", "@at", "`tick", "%TAG", "!tag", "&anchor", "*alias",
	"x\u00a0nbsp", "ü\nñ", "\\backslash\\", "mid\ttab\nline\ttwo", "a: b\nc # d",
}

// roundTrip writes s as a mapping's value, an array's item and a key, and
// reads the YAML back; it fails unless each comes back byte for byte.
func roundTrip(t *testing.T, s string) {
	t.Helper()
	doc := map[string]any{"info": map[string]any{"description": s}, "list": []any{s, map[string]any{"d": s}}, "keys": map[string]any{s: 1}}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	out, err := FromJSON(data)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	var back struct {
		Info struct{ Description string }
		List []any
		Keys map[string]int
	}
	if err := yaml.Unmarshal(out, &back); err != nil {
		t.Fatalf("%q: the YAML does not parse: %v\n%s", s, err, out)
	}
	item, _ := back.List[1].(map[string]any)
	if back.Info.Description != s || len(back.List) != 2 || back.List[0] != s || item["d"] != s || back.Keys[s] != 1 || len(back.Keys) != 1 {
		t.Fatalf("%q changed:\n%s\nread back %#v", s, out, back)
	}
}

// TestFromJSONRoundTripsHostileStringsExactly checks that every hostile string
// comes back from the YAML exactly (the JSON document is encoding/json's).
func TestFromJSONRoundTripsHostileStringsExactly(t *testing.T) {
	for _, s := range hostileDocs {
		roundTrip(t, s)
	}
}

// FuzzFromJSONRoundTrips does the same for any valid UTF-8 string.
func FuzzFromJSONRoundTrips(f *testing.F) {
	for _, s := range hostileDocs[:12] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // JSON holds only valid UTF-8; encoding/json would change s first
		}
		roundTrip(t, s)
	})
}
