package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The graph package's three-module fixture and its expected graph.
const systemFixture = "internal/graph/testdata/system"

var systemModules = []string{systemFixture + "/shop", systemFixture + "/billing", systemFixture + "/analytics"}

func TestGraphCheckExitsOneNamingEachFindingWithItsPosition(t *testing.T) {
	code, stdout, errOut := cli(t, append([]string{"graph", "--check"}, systemModules...)...)
	for _, want := range []string{
		"example.com/shop/main.go:35: unconsumed: event orders.OrderRefunded is published by shop but consumed by nobody",
		"example.com/billing/main.go:30: unpublished: event orders.OrderCancelled is consumed by billing but published or sent by nobody",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if code != exitFindings || stdout != "" {
		t.Errorf("exit %d, stdout %q; want 1 and nothing on stdout", code, stdout)
	}
}

func TestGraphCheckWithAnIgnoreFileForEveryFindingExitsZero(t *testing.T) {
	ignore := filepath.Join(t.TempDir(), "ignore")
	os.WriteFile(ignore, []byte("unconsumed orders.OrderRefunded # another repo\nunpublished orders.OrderCancelled\n"), 0o644)
	code, stdout, errOut := cli(t, append([]string{"graph", "--check", "--ignore", ignore}, systemModules...)...)
	if code != exitOK || errOut != "" || stdout != "graph: 3 services; no findings\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
}

func TestGraphCheckWarnsOfAnIgnoreLineThatIgnoresNothing(t *testing.T) {
	ignore := filepath.Join(t.TempDir(), "ignore")
	os.WriteFile(ignore, []byte("unconsumed orders.OrderRefunded\nunconsumed orders.OrderPlaced\nunpublished orders.OrderCancelled\n"), 0o644)
	code, _, errOut := cli(t, append([]string{"graph", "--check", "--ignore", ignore}, systemModules...)...)
	if code != exitOK || errOut != ignore+":2: warning: unconsumed orders.OrderPlaced ignores nothing: remove the line\n" {
		t.Errorf("exit %d, stderr %q; want 0 and a warning for line 2", code, errOut)
	}
}

func TestGraphWritesJSONDotAndMermaid(t *testing.T) {
	code, stdout, errOut := cli(t, append([]string{"graph"}, systemModules...)...)
	want, _ := os.ReadFile(systemFixture + "/graph.json")
	if code != exitOK || errOut != "" || stdout != string(want) || !json.Valid([]byte(stdout)) {
		t.Errorf("json: exit %d, stderr %q, stdout:\n%s", code, errOut, stdout)
	}
	for format, want := range map[string]string{
		"dot":     `"service billing" -> "orders.GetOrderStatus" [label="calls"];`,
		"mermaid": "-- consumes --> ",
	} {
		code, stdout, errOut := cli(t, append([]string{"graph", "--format", format}, systemModules...)...)
		if code != exitOK || errOut != "" || !strings.Contains(stdout, want) {
			t.Errorf("%s: exit %d, stderr %q, stdout lacks %q:\n%s", format, code, errOut, want, stdout)
		}
	}
}

func TestGraphUsageErrorsExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"graph"},
		{"graph", "--format", "svg", "."},
		{"graph", "--ignore", "x", "."},
		{"graph", "--against", "HEAD~1", "."},
		{"graph", "--check", "--ignore", "/no/such/ignore-file", systemModules[0]},
	} {
		if code, _, errOut := cli(t, args...); code != exitUsage || !strings.Contains(errOut, "acemq-gen graph: ") {
			t.Errorf("%q: exit %d, stderr %q; want 2", args, code, errOut)
		}
	}
}

func TestGraphOfCodeThatDoesNotCompileExitsOne(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/broken\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() { undefined() }\n"), 0o644)
	code, _, errOut := cli(t, "graph", dir)
	if code != exitFindings || !strings.Contains(errOut, "main.go:3") {
		t.Errorf("exit %d, stderr %q; want 1 naming main.go:3", code, errOut)
	}
}

func TestGraphOfAModuleWhoseGoModIsStaleSaysWhatGoListSays(t *testing.T) {
	root, _ := filepath.Abs("../..")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/stale\n\ngo 1.26\n\nrequire github.com/acemq/acemq-gen v0.0.0\n\nreplace github.com/acemq/acemq-gen => "+root+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nimport _ \"github.com/acemq/acemq-gen/runtime/acemq\"\n\nfunc main() {}\n"), 0o644)
	code, _, errOut := cli(t, "graph", dir)
	if code != exitFindings || !strings.Contains(errOut, "go mod tidy") {
		t.Errorf("exit %d, stderr %q; want 1 and go list's advice", code, errOut)
	}
}
