package ops

import (
	"fmt"
	"io"
	"strings"

	"github.com/acemq/acemq-gen/generator"
)

// PrintDiagnostics writes each diagnostic on its own line and reports
// whether any was an error.
func PrintDiagnostics(ds generator.Diagnostics, stderr io.Writer) bool {
	for _, d := range ds {
		fmt.Fprintln(stderr, d)
	}
	return ds.HasErrors()
}

// Plural is "1 message" or "n messages".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Unprefixed is err's text without the runtime's "acemq: " prefix.
func Unprefixed(err error) string { return strings.TrimPrefix(err.Error(), "acemq: ") }

// ReadSources reads the contracts under paths, reporting on stderr what
// cannot be read; ok is false then.
func ReadSources(paths []string, stderr io.Writer) ([]generator.Source, bool) {
	srcs, err := generator.ReadSources(paths)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, false
	}
	return srcs, true
}
