package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// boundModule writes a module that requires example.com/shared (the
// repository's testdata/shared) through a replace directive, as a team's
// service module requires its shared types.
func boundModule(t *testing.T) string {
	t.Helper()
	shared, err := filepath.Abs("../../testdata/shared")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	writeText(t, filepath.Join(mod, "go.mod"), "module example.com/svc\n\ngo 1.26\n\nrequire example.com/shared v0.0.0\n\nreplace example.com/shared => "+shared+"\n")
	return mod
}

const boundContract = `acemq: 1
domain: billing
types:
  Money:
    go: example.com/shared/%s.Amount
    fields:
      cents: long
      currency: Currency
      note: string?
  Currency:
    go: example.com/shared/money.Currency
    enum: [EUR, USD]
events:
  PaymentTaken:
    fields:
      total: Money
`

// generate loads bound types in the module of the output directory, which
// need not exist yet, through its replace directive.
func TestGenerateBindsTypesOfTheOutputDirectorysModule(t *testing.T) {
	mod := boundModule(t)
	contract := filepath.Join(mod, "billing.acemq.yaml")
	writeText(t, contract, strings.Replace(boundContract, "%s", "money", 1))
	if code, _, errOut := cli(t, "generate", "-o", filepath.Join(mod, "gen"), contract); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(filepath.Join(mod, "gen", "billing", "billing.acemq.go"))
	if err != nil || !strings.Contains(string(data), "Total money.Amount") || strings.Contains(string(data), "type Money") {
		t.Fatalf("generated (%v):\n%s", err, data)
	}
}

// A Go type that differs from the contract fails generate, naming both
// positions.
func TestGenerateRefusesABoundTypeThatDiffersFromTheContract(t *testing.T) {
	mod := boundModule(t)
	contract := filepath.Join(mod, "billing.acemq.yaml")
	writeText(t, contract, strings.Replace(boundContract, "%s", "bad", 1))
	code, _, errOut := cli(t, "generate", "-o", filepath.Join(mod, "gen"), contract)
	want := `billing.acemq.yaml:5:5: type Money is bound to example.com/shared/bad.Amount, whose field Cents (bad/bad.go:9:2) has json tag "cents_total"; the contract's wire name is "cents"`
	if code != exitFindings || !strings.Contains(errOut, want) {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(mod, "gen")); err == nil {
		t.Fatal("generate wrote files for a refused contract")
	}
}
