package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAsyncAPIWritesOneDocumentPerDomain(t *testing.T) {
	out := t.TempDir()
	if code, _, errOut := cli(t, "asyncapi", "-o", out, contracts(t)); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(filepath.Join(out, "orders.asyncapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"asyncapi: 3.0.0", "sendOrderPlaced:", "receiveCancelOrder:", "bindingVersion: 0.3.0"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("document lacks %q", want)
		}
	}
}

func TestAsyncAPIFormatJSONAndServers(t *testing.T) {
	out := t.TempDir()
	code, _, errOut := cli(t, "asyncapi", "-o", out, "--format", "json",
		"--server", "production=amqps://rabbit.example.com/shop", "--server", "local=amqp://localhost:5672/", contracts(t))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(filepath.Join(out, "orders.asyncapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		AsyncAPI string                    `json:"asyncapi"`
		Servers  map[string]map[string]any `json:"servers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.AsyncAPI != "3.0.0" || doc.Servers["production"]["protocol"] != "amqps" || doc.Servers["production"]["pathname"] != "/shop" || doc.Servers["local"]["host"] != "localhost:5672" {
		t.Errorf("document %+v", doc)
	}
}

func TestAsyncAPIUsageErrorsExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"asyncapi", "--format", "xml", "x"},
		{"asyncapi", "--server", "nourl", "x"},
		{"asyncapi"},
	} {
		if code, _, _ := cli(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestAsyncAPINonAMQPServerIsAUsageError: a --server whose URL is not
// amqp:// or amqps:// is a usage error (exit 2) naming the flag and the
// server, with the command's usage line, never a diagnostic at the made-up
// position acemq-gen:0:0, and before any contract is read.
func TestAsyncAPINonAMQPServerIsAUsageError(t *testing.T) {
	for _, args := range [][]string{
		{"asyncapi", "--server", "prod=http://x", contracts(t)},
		{"asyncapi", "--server", "prod=http://x", filepath.Join(t.TempDir(), "missing")},
		{"asyncapi", "--server", "ok=amqp://h/", "--server", "prod=amqp://", contracts(t)},
	} {
		code, _, errOut := cli(t, args...)
		if code != exitUsage || strings.Contains(errOut, ":0:0") || !strings.HasPrefix(errOut, "acemq-gen asyncapi: --server prod: ") ||
			!strings.Contains(errOut, "amqp://") || !strings.Contains(errOut, "usage: acemq-gen asyncapi") {
			t.Errorf("%q: exit %d:\n%s", args, code, errOut)
		}
	}
}

func TestAsyncAPIRemovesDocumentsNoDomainWrites(t *testing.T) {
	out := t.TempDir()
	writeText(t, filepath.Join(out, "gone.asyncapi.yaml"), "old")
	writeText(t, filepath.Join(out, "notes.yaml"), "kept")
	if code, _, errOut := cli(t, "asyncapi", "-o", out, contracts(t)); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(out, "gone.asyncapi.yaml")); !os.IsNotExist(err) {
		t.Errorf("the stale document survived: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "notes.yaml")); err != nil {
		t.Errorf("a file acemq-gen does not write was removed: %v", err)
	}
}

func TestGenerateAsyncAPIWritesDocumentsBesideThePackagesAndCheckKeepsThemFresh(t *testing.T) {
	out, src := t.TempDir(), contracts(t)
	if code, _, errOut := cli(t, "generate", "-o", out, "--asyncapi", src); code != exitOK {
		t.Fatalf("generate: exit %d: %s", code, errOut)
	}
	doc := filepath.Join(out, "orders.asyncapi.yaml")
	if _, err := os.Stat(doc); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "orders", "orders.acemq.go")); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := cli(t, "check", "-o", out, "--asyncapi", src); code != exitOK {
		t.Fatalf("check on fresh output: exit %d: %s", code, errOut)
	}
	writeText(t, doc, "asyncapi: 3.0.0\n")
	code, stdout, errOut := cli(t, "check", "-o", out, "--asyncapi", src)
	if code != exitFindings || !strings.Contains(errOut, "orders.asyncapi.yaml differs") || !strings.Contains(stdout, "+info:") {
		t.Errorf("check after an edit: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, errOut)
	}
	must(t, os.Remove(doc))
	if code, _, errOut := cli(t, "check", "-o", out, "--asyncapi", src); code != exitFindings || !strings.Contains(errOut, "orders.asyncapi.yaml is missing") {
		t.Errorf("check of a missing document: exit %d: %s", code, errOut)
	}
	if code, _, errOut := cli(t, "check", "-o", out, src); code != exitOK {
		t.Errorf("check without --asyncapi looks at the documents: exit %d: %s", code, errOut)
	}
	writeText(t, filepath.Join(out, "stale.asyncapi.yaml"), "old")
	if code, _, errOut := cli(t, "check", "-o", out, "--asyncapi", src); code != exitFindings || !strings.Contains(errOut, "stale.asyncapi.yaml is not generated") {
		t.Errorf("check of a stale document: exit %d: %s", code, errOut)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestAsyncAPIServerFlagNeverEchoesItsValue: a --server value without
// NAME= may be a URL with a password; the usage error does not show it.
func TestAsyncAPIServerFlagNeverEchoesItsValue(t *testing.T) {
	code, _, errOut := cli(t, "asyncapi", "--server", "amqp://user:s3cret@host/", contracts(t))
	if code != exitUsage || strings.Contains(errOut, "s3cret") || !strings.Contains(errOut, "NAME=URL") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
