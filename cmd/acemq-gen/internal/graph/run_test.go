package graph

import (
	"bytes"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
)

func TestRunWithAFormatItDoesNotWriteIsAUsageErrorNotAPanic(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Run(t.Context(), Options{Format: "xml", Args: []string{"testdata/library/lib"}}, &stdout, &stderr)
	if code != ops.ExitUsage || !strings.Contains(stderr.String(), `--format "xml": want json, dot or mermaid`) || stdout.Len() != 0 {
		t.Errorf("Run with format xml: exit %d, stderr %q, stdout %q; want a usage error", code, stderr.String(), stdout.String())
	}
}
