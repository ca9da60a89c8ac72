package generator

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAsyncAPIGolden compares every golden case's AsyncAPI documents with
// its want.asyncapi/ directory (cases whose generation fails, those with a
// want.stderr, have none).
func TestAsyncAPIGolden(t *testing.T) {
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(goldenDir, name)
			if _, err := os.Stat(filepath.Join(dir, "want.stderr")); err == nil {
				return // TestGolden compares the diagnostics
			}
			res := AsyncAPI(caseSources(t, dir))
			if len(res.Diagnostics) > 0 {
				t.Fatalf("diagnostics:\n%s", stderrOf(res.Diagnostics))
			}
			want := filepath.Join(dir, "want.asyncapi")
			if *update {
				updateFiles(t, want, res.Files)
			}
			compareFiles(t, want, res.Files)
		})
	}
}
