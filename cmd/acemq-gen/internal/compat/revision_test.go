package compat

import "testing"

// TestGitRevisionRefusesOptionsAndControlCharacters checks the one rule a
// user's revision passes before it reaches git.
func TestGitRevisionRefusesOptionsAndControlCharacters(t *testing.T) {
	for _, bad := range []string{"", "-p", "--output=x", "HEAD\n--output=x", "a\x00b", "HEAD\t"} {
		if err := checkRevision(bad); err == nil {
			t.Errorf("checkRevision(%q) = nil, want an error", bad)
		}
	}
	for _, good := range []string{"HEAD", "HEAD~2", "v1.2.0", "main@{1}", "abc123^", "origin/main", ":/fix"} {
		if err := checkRevision(good); err != nil {
			t.Errorf("checkRevision(%q) = %v", good, err)
		}
	}
}
