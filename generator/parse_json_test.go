package generator

import (
	"strings"
	"testing"
)

// Issue 23 item 10: an invalid kind in an .avsc acemq property no longer
// hides the problems beside it; every one is reported in one run.
func TestAvscInvalidKindStillReportsACodecTypoBesideIt(t *testing.T) {
	src := `{"type": "record", "name": "OrderShipped", "namespace": "com.example.shop",
 "acemq": {"kind": "evnt", "domain": "shop", "codec": "jsonn"}, "fields": []}`
	got := stderrOf(Vet([]Source{{Path: "shipped.avsc", Data: []byte(src)}}))
	for _, want := range []string{
		`shipped.avsc:2:20: record OrderShipped: acemq.kind must be event, command, rpc-request or rpc-response; did you mean "event"?`,
		`shipped.avsc:2:55: unknown codec "jsonn"; did you mean "json"?`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, got)
		}
	}
}

// A missing domain is reported with a wrong kind, not instead of it.
func TestAvscMissingDomainAndWrongKindAreBothReported(t *testing.T) {
	src := `{"type": "record", "name": "Lost", "namespace": "com.example.lost", "acemq": {"kind": "notice"}, "fields": []}`
	got := stderrOf(Vet([]Source{{Path: "lost.avsc", Data: []byte(src)}}))
	if !strings.Contains(got, "acemq.kind must be") || !strings.Contains(got, "needs a domain") {
		t.Errorf("want both the kind and the domain reported, got:\n%s", got)
	}
}

// Issue 23 item 10: a trailing comma is not JSON; the YAML parser that
// reads .avsc files accepted it.
func TestAvscTrailingCommaIsRefusedWithItsPosition(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"list": {"{\"type\": \"record\", \"name\": \"Paid\", \"namespace\": \"com.example.paid\",\n \"fields\": [{\"name\": \"a\", \"type\": \"string\"},\n ]}",
			`paid.avsc:2:44: invalid JSON: a comma before ']' (JSON has no trailing commas)`},
		"object": {"{\"type\": \"fixed\", \"name\": \"Hash\", \"namespace\": \"com.example.paid\", \"size\": 4,}",
			`paid.avsc:1:77: invalid JSON: a comma before '}' (JSON has no trailing commas)`},
	} {
		t.Run(name, func(t *testing.T) {
			got := stderrOf(Vet([]Source{{Path: "paid.avsc", Data: []byte(tc.src)}}))
			if !strings.Contains(got, tc.want) {
				t.Errorf("want %q, got:\n%s", tc.want, got)
			}
		})
	}
}

// What else YAML accepts and JSON does not, such as a comment, is refused
// at its position too.
func TestAvscCommentIsRefusedWithItsPosition(t *testing.T) {
	src := "{\"type\": \"fixed\", \"name\": \"Hash\", # note\n \"namespace\": \"com.example.paid\", \"size\": 4}"
	got := stderrOf(Vet([]Source{{Path: "paid.avsc", Data: []byte(src)}}))
	if !strings.Contains(got, "paid.avsc:1:35: invalid JSON: invalid character '#'") {
		t.Errorf("got:\n%s", got)
	}
}
