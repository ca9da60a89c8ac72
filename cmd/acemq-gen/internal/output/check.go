package output

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/textdiff"
)

// CheckFile reports a file that is missing or differs from want, on stderr
// with a diff on stdout, as acemq-gen check and catalog --check do; it
// returns the number of findings (0 or 1).
func CheckFile(name string, want []byte, stdout, stderr io.Writer) int {
	got, err := os.ReadFile(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(stderr, "acemq-gen: %s is missing\n", name)
		return 1
	case err != nil:
		fmt.Fprintln(stderr, "acemq-gen:", err)
		return 1
	case string(got) == string(want):
		return 0
	}
	fmt.Fprintf(stderr, "acemq-gen: %s differs from what generate would write\n", name)
	fmt.Fprint(stdout, textdiff.Unified(name+" (on disk)", name+" (generated)", string(got), string(want)))
	return 1
}
