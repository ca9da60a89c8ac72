package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompatSinceIsNeverAGitOption gives --since, and the revision of
// --against git:REV, values git would read as options that write a file:
// compat refuses them as revisions, and no file appears.
func TestCompatSinceIsNeverAGitOption(t *testing.T) {
	r := newGitRepo(t)
	r.commitMsg("orders v1", map[string]string{"contracts/orders.acemq.yaml": compatContract(noteRequired, commandV1)})
	contracts := filepath.Join(r.dir, "contracts")
	victimDir := t.TempDir()
	victim := filepath.Join(victimDir, "written-by-git")
	for _, args := range [][]string{
		{"compat", "--history", "--since", "--output=" + victim, contracts},
		{"compat", "--history", "--since=--output=" + victim, contracts},
		{"compat", "--against", "git:--output=" + victim, contracts},
		{"compat", "--against", "git:--output=" + victim, filepath.Join(contracts, "orders.acemq.yaml")},
	} {
		code, _, errOut := cli(t, args...)
		if entries, _ := os.ReadDir(victimDir); len(entries) > 0 {
			t.Fatalf("%q: git wrote %s", args, entries[0].Name())
		}
		if code != exitUsage || !strings.Contains(errOut, "is not a git revision") {
			t.Errorf("%q: exit %d, stderr %q; want 2 refusing the revision", args, code, errOut)
		}
	}
}

// TestCompatReadsAHugeBlobOnlyToTheLimit commits a contract of 3 MiB: compat
// against that revision reads it only one byte past the limit and reports
// it too big (the file is 2097153 bytes, all it read), instead of loading
// the blob whole.
func TestCompatReadsAHugeBlobOnlyToTheLimit(t *testing.T) {
	r := newGitRepo(t)
	huge := "acemq: 1\ndomain: orders\ndoc: " + strings.Repeat("x", 3<<20) + "\n"
	r.commitMsg("huge", map[string]string{"contracts/orders.acemq.yaml": huge})
	contracts := filepath.Join(r.dir, "contracts")
	writeText(t, filepath.Join(contracts, "orders.acemq.yaml"), compatContract(noteRequired, commandV1))
	code, _, errOut := cli(t, "compat", "--against", "git:HEAD", contracts)
	if code == exitOK || !strings.Contains(errOut, "the file is 2097153 bytes; a contract file holds at most 2097152") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
