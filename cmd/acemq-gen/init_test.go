package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInitScaffoldsAContractThatGeneratesAndAGoGenerateLine(t *testing.T) {
	dir := t.TempDir()
	code, stdout, errOut := cli(t, "init", "-o", dir, "billing")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(stdout, "next: go get -tool github.com/acemq/acemq-gen/cmd/acemq-gen") {
		t.Errorf("init outside a module with the tool does not say how to add it:\n%s", stdout)
	}
	gen, err := os.ReadFile(filepath.Join(dir, "gen.go"))
	if err != nil || !strings.Contains(string(gen), "//go:generate go tool acemq-gen generate -o . ./contracts\n") {
		t.Fatalf("gen.go: %v\n%s", err, gen)
	}
	if code, _, errOut := cli(t, "generate", "-o", dir, filepath.Join(dir, "contracts", "billing.acemq.yaml")); code != exitOK {
		t.Fatalf("the scaffolded contract does not generate: %s", errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "billing", "billing.acemq.go")); err != nil {
		t.Fatal(err)
	}
}

func TestInitNeverOverwritesAContractAndKeepsAnExistingGenGo(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "gen.go"), "package mine\n")
	if code, stdout, _ := cli(t, "init", "-o", dir, "billing"); code != exitOK || !strings.Contains(stdout, "kept") {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "gen.go")); string(data) != "package mine\n" {
		t.Fatal("gen.go was overwritten")
	}
	if code, _, errOut := cli(t, "init", "-o", dir, "billing"); code != exitFindings || !strings.Contains(errOut, "already exists") {
		t.Fatalf("second init: exit %d, stderr %q", code, errOut)
	}
}

func TestInitTakesTheGoPackageOfTheDirectory(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "main.go"), "package main\n\nfunc main() {}\n")
	cli(t, "init", "-o", dir, "shop")
	if data, _ := os.ReadFile(filepath.Join(dir, "gen.go")); !strings.HasPrefix(string(data), "package main\n") {
		t.Fatalf("gen.go:\n%s", data)
	}
}

func TestInitRefusesABadDomain(t *testing.T) {
	if code, _, errOut := cli(t, "init", "-o", t.TempDir(), "Bad_Domain"); code != exitUsage || !strings.Contains(errOut, "bad domain") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// At a module's root holding no Go file yet, gen.go is package main: the
// main.go README's tutorial adds beside it must build with it.
func TestInitWritesPackageMainAtAModuleRoot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shop")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeText(t, filepath.Join(dir, "go.mod"), "module example.com/shop\n\ngo 1.26\n")
	if code, _, errOut := cli(t, "init", "-o", dir, "orders"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "gen.go")); !strings.HasPrefix(string(data), "package main\n") {
		t.Fatalf("gen.go at the module's root:\n%s", data)
	}
	sub := filepath.Join(dir, "messaging")
	cli(t, "init", "-o", sub, "orders")
	if data, _ := os.ReadFile(filepath.Join(sub, "gen.go")); !strings.HasPrefix(string(data), "package messaging\n") {
		t.Fatalf("gen.go below the module's root:\n%s", data)
	}
}

// The scaffolded contract sends its reader to the contract reference that
// exists, docs/contracts.md.
func TestInitContractPointsAtDocsContracts(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := cli(t, "init", "-o", dir, "orders"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(filepath.Join(dir, "contracts", "orders.acemq.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "docs/contracts.md") || strings.Contains(string(data), "CONTRACTS.md") {
		t.Errorf("the contract does not point at docs/contracts.md:\n%s", data)
	}
	if _, err := os.Stat("../../docs/contracts.md"); err != nil {
		t.Errorf("the reference it points at: %v", err)
	}
}
