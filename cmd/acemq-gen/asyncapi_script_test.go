package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acemq/acemq-gen/internal/testenv"
)

// asyncapiScript runs scripts/asyncapi.sh with args in dir, on the
// @asyncapi/parser installation ACEMQ_ASYNCAPI_PARSER names (scripts/test.sh
// installs one), and returns its exit code, stdout and stderr. Without one
// the test skips, or fails under ACEMQ_REQUIRE_ASYNCAPI.
func asyncapiScript(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	parser := testenv.AsyncAPIParser(t)
	script, err := filepath.Abs("../../scripts/asyncapi.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(script, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ACEMQ_ASYNCAPI_CACHE="+filepath.Dir(parser)) // the installation, not a new one
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// TestAsyncAPIScriptValidatesARelativePathFromTheCallersDirectory: a FILE
// relative to the directory the script is run from is read from there,
// not from the repository the script changes to.
func TestAsyncAPIScriptValidatesARelativePathFromTheCallersDirectory(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := cli(t, "asyncapi", "-o", dir, contracts(t)); code != exitOK {
		t.Fatalf("asyncapi: exit %d: %s", code, errOut)
	}
	code, out, errOut := asyncapiScript(t, dir, "validate", "orders.asyncapi.yaml")
	if code != 0 || !strings.Contains(out, "1 document(s), 0 with errors or warnings") {
		t.Errorf("validate orders.asyncapi.yaml from its directory: exit %d:\n%s%s", code, out, errOut)
	}
}

// TestAsyncAPIScriptReportsAMissingFileInOneLine: a FILE that does not
// exist is one line naming it, exit 1, never Node's ENOENT stack trace.
func TestAsyncAPIScriptReportsAMissingFileInOneLine(t *testing.T) {
	code, out, errOut := asyncapiScript(t, t.TempDir(), "validate", "missing.asyncapi.yaml")
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if code != 1 || len(lines) != 1 || !strings.Contains(lines[0], "missing.asyncapi.yaml") || strings.Contains(out+errOut, "ENOENT") {
		t.Errorf("a missing file: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
}
