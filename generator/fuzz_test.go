package generator

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzGenerate feeds arbitrary bytes to the whole pipeline: it must never
// panic, and it either generates files or says why not.
func FuzzGenerate(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(goldenDir, "*", "*.acemq.yaml"))
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("acemq: 1\ndomain: a\nevents: {E: {fields: {x: '{map: [int]}?'}}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		done := make(chan Result, 1)
		go func() { done <- Generate([]Source{{Path: "f.acemq.yaml", Data: data}}) }()
		select {
		case res := <-done:
			if len(res.Files) == 0 && len(res.Diagnostics) == 0 {
				t.Fatal("neither files nor diagnostics")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("generate did not return") // a hang, not a timing assertion
		}
	})
}
