package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildVet builds acemq-vet into a temporary directory.
func buildVet(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "acemq-vet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runIn runs name args in dir and returns its output and exit code.
func runIn(t *testing.T, dir, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return string(out), 0
}

// The analyzers' testdata module is the target: a package with a trap and
// one without.
const testdata = "../../generator/vet/testdata"

const trap = `SetHeader("x-acemq-id"): the x-acemq- namespace belongs to the engine`

func TestAcemqVetReportsAsACommand(t *testing.T) {
	bin := buildVet(t)
	out, code := runIn(t, testdata, bin, "./reservedheader")
	if code != 3 || !strings.Contains(out, "reservedheader.go:") || !strings.Contains(out, trap) {
		t.Fatalf("acemq-vet ./reservedheader exited %d, want 3 with %q:\n%s", code, trap, out)
	}
	if out, code := runIn(t, testdata, bin, "./wiretags/gen"); code != 0 {
		t.Fatalf("acemq-vet on a clean package exited %d:\n%s", code, out)
	}
}

func TestAcemqVetReportsAsAGoVetTool(t *testing.T) {
	bin := buildVet(t)
	out, code := runIn(t, testdata, "go", "vet", "-vettool="+bin, "./reservedheader")
	if code == 0 || !strings.Contains(out, trap) {
		t.Fatalf("go vet -vettool exited %d, want a failure with %q:\n%s", code, trap, out)
	}
	if out, code := runIn(t, testdata, "go", "vet", "-vettool="+bin, "./wiretags/gen"); code != 0 {
		t.Fatalf("go vet -vettool on a clean package exited %d:\n%s", code, out)
	}
}

func TestAcemqVetPassesCleanOverTheProject(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses every package of the module")
	}
	bin := buildVet(t)
	if out, code := runIn(t, "../..", bin, "./..."); code != 0 {
		t.Fatalf("acemq-vet ./... over the project exited %d:\n%s", code, out)
	}
}
