package templates

import (
	"strings"
	"testing"
)

func TestInitRendersTheContractAndGenGoForTheDomain(t *testing.T) {
	files, err := Init(Scaffold{Domain: "billing", Package: "svc"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Name != "contracts/billing.acemq.yaml" || files[1].Name != "gen.go" {
		t.Fatalf("files: %+v", files)
	}
	if !strings.Contains(string(files[0].Data), "\ndomain: billing\n") {
		t.Errorf("contract does not name the domain:\n%s", files[0].Data)
	}
	if !strings.HasPrefix(string(files[1].Data), "package svc\n") {
		t.Errorf("gen.go has the wrong package:\n%s", files[1].Data)
	}
	if !strings.Contains(string(files[1].Data), "\n//go:generate go tool acemq-gen generate -o . ./contracts\n") {
		t.Errorf("gen.go does not run acemq-gen through the tool directive:\n%s", files[1].Data)
	}
}
