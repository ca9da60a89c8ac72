package generator

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzGenerate feeds arbitrary bytes to the whole pipeline as a YAML
// contract: it must never panic, and it either generates files or says why
// not, every diagnostic pointing inside the input.
func FuzzGenerate(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(goldenDir, "*", "*.acemq.yaml"))
	addSeeds(f, seeds)
	f.Add([]byte("acemq: 1\ndomain: a\nevents: {E: {fields: {x: '{map: [int]}?'}}}"))
	f.Add([]byte("acemq: 1\ndomain: a\nrpc: {R: {request: {fields: {u: '{union: [null, long, R]}'}}}}"))
	f.Fuzz(func(t *testing.T, data []byte) { checkGenerate(t, "f.acemq.yaml", data) })
}

// FuzzGenerateAvsc does the same with the bytes as an .avsc file.
func FuzzGenerateAvsc(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(goldenDir, "*", "*.avsc"))
	seeds2, _ := filepath.Glob(filepath.Join(goldenDir, "*", "*", "*.avsc"))
	addSeeds(f, append(seeds, seeds2...))
	f.Fuzz(func(t *testing.T, data []byte) { checkGenerate(t, "f.avsc", data) })
}

func addSeeds(f *testing.F, paths []string) {
	for _, s := range paths {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
}

func checkGenerate(t *testing.T, name string, data []byte) {
	done := make(chan Result, 1)
	go func() { done <- Generate([]Source{{Path: name, Data: data}}) }()
	select {
	case res := <-done:
		if len(res.Files) == 0 && len(res.Diagnostics) == 0 {
			t.Fatal("neither files nor diagnostics")
		}
		for _, d := range res.Diagnostics {
			checkInside(t, name, data, d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("generate did not return") // a hang, not a timing assertion
	}
}

// checkInside fails unless d points at a line and column of data (one past
// the last line or column is allowed: the end of the input).
func checkInside(t *testing.T, name string, data []byte, d Diagnostic) {
	t.Helper()
	lines := bytes.Split(data, []byte("\n"))
	p := d.Pos
	if p.File != name || p.Line < 1 || p.Line > len(lines)+1 || p.Col < 1 {
		t.Fatalf("diagnostic outside the input: %s", d)
	}
	if p.Line <= len(lines) && p.Col > len([]rune(string(lines[p.Line-1])))+1 && !strings.Contains(d.Message, "internal error") {
		t.Fatalf("diagnostic past the end of line %d: %s", p.Line, d)
	}
}
