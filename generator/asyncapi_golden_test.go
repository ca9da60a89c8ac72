package generator

import (
	"path/filepath"
	"testing"
)

// TestAsyncAPIGolden compares every golden case's AsyncAPI documents with
// its want.asyncapi/ directory (cases whose contracts fail have none).
func TestAsyncAPIGolden(t *testing.T) {
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(goldenDir, name)
			res := AsyncAPI(caseSources(t, dir))
			if len(res.Diagnostics) > 0 {
				return // want.stderr holds them; TestGolden compares it
			}
			want := filepath.Join(dir, "want.asyncapi")
			if *update {
				updateFiles(t, want, res.Files)
			}
			compareFiles(t, want, res.Files)
		})
	}
}
