package acemq

import (
	"strings"
	"testing"
)

func TestTrimmedSetAsideDropsTheLargestApplicationHeadersFirst(t *testing.T) {
	env := Envelope{Error: "could not be decoded: bad", Headers: map[string]any{
		"big": strings.Repeat("b", 1000), "mid": strings.Repeat("m", 100), "small": "s"}}
	got := trimmedToFit(env, 500)
	if _, kept := got.Headers["big"]; kept || got.Headers["mid"] == nil || got.Headers["small"] != "s" {
		t.Fatalf("headers after trimming 500 bytes = %v, want only big dropped", keys(got.Headers))
	}
	if want := `could not be decoded: bad; headers dropped to fit the broker's frame_max (1009 bytes): "big"`; got.Error != want {
		t.Fatalf("reason = %q, want %q", got.Error, want)
	}
	if len(env.Headers) != 3 {
		t.Fatal("trimmedToFit modified the envelope it was given")
	}
}

func TestTrimmedSetAsideCutsTheReasonWhenNoHeaderIsLeft(t *testing.T) {
	env := Envelope{Error: "the handler parked it: " + strings.Repeat("r", 2000)}
	got := trimmedToFit(env, 1500)
	if len(got.Error) > len(env.Error)-1500 || !strings.HasSuffix(got.Error, "[cut to fit frame_max]") {
		t.Fatalf("reason of %d bytes after cutting 1500 of %d: %q", len(got.Error), len(env.Error), got.Error[len(got.Error)-40:])
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
