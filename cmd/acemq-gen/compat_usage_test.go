package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dropField writes the fixture's orders contract without the line
// declaring field, into a new directory.
func dropField(t *testing.T, field string) string {
	t.Helper()
	data, err := os.ReadFile(systemFixture + "/shop/contracts/orders.acemq.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), field+":") {
			kept = append(kept, l)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "orders.acemq.yaml"), []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func compatUsage(t *testing.T, next string, usage bool) (int, string, string) {
	args := []string{"compat", "--against", systemFixture + "/shop/contracts", next}
	if usage {
		args = append(args, "--usage", systemFixture+"/graph.json")
	}
	return cli(t, args...)
}

func TestCompatUsageDroppingAFieldNobodyReadsPassesWithANote(t *testing.T) {
	code, stdout, errOut := compatUsage(t, dropField(t, "lines"), true)
	if code != exitOK || !strings.Contains(stdout, "nothing breaks") ||
		!strings.Contains(errOut, "warning: OrderPlaced: lines: removed") || !strings.Contains(errOut, "no consumer reads it") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0 and a note that nobody reads lines", code, stdout, errOut)
	}
}

func TestCompatUsageDroppingAFieldBillingReadsNamesBillingAndTheRead(t *testing.T) {
	code, _, errOut := compatUsage(t, dropField(t, "totalCents"), true)
	if code != exitFindings || !strings.Contains(errOut, "OrderPlaced: totalCents: removed") ||
		!strings.Contains(errOut, "read by billing at charge.go:26") || strings.Contains(errOut, "warning") {
		t.Errorf("exit %d, stderr %q; want 1 naming billing at charge.go:26", code, errOut)
	}
}

func TestCompatUsageAFieldReadThroughJSONMarshalBreaks(t *testing.T) {
	code, _, errOut := compatUsage(t, dropField(t, "carrier"), true)
	if code != exitFindings || !strings.Contains(errOut, "read by analytics at main.go:21 (every field: passed to encoding/json.Marshal") {
		t.Errorf("exit %d, stderr %q; want 1 naming analytics and json.Marshal", code, errOut)
	}
}

func TestCompatWithoutUsageIsUnchanged(t *testing.T) {
	for _, field := range []string{"lines", "totalCents"} {
		code, _, errOut := compatUsage(t, dropField(t, field), false)
		if code != exitFindings || !strings.Contains(errOut, "OrderPlaced: "+field+": removed, but it has no default in BASE") ||
			strings.Contains(errOut, "read by") || strings.Contains(errOut, "warning") {
			t.Errorf("%s: exit %d, stderr %q; want today's break", field, code, errOut)
		}
	}
}

func TestCompatUsageUnreadableFileIsAUsageError(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "usage.json")
	os.WriteFile(bad, []byte(`{"version": 99, "services": []}`), 0o644)
	for _, f := range []string{bad, "/no/such/usage.json"} {
		code, _, errOut := cli(t, "compat", "--against", systemFixture+"/shop/contracts", "--usage", f, systemFixture+"/shop/contracts")
		if code != exitUsage || !strings.Contains(errOut, "--usage") {
			t.Errorf("%s: exit %d, stderr %q; want 2", f, code, errOut)
		}
	}
}
