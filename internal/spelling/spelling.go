// Package spelling suggests what a user meant by a name they mistyped: a
// command, a flag, a contract key. The command line and the generator's
// diagnostics share it, so a typo gets the same help everywhere.
package spelling

import (
	"fmt"
	"strings"
)

// Nearest returns the candidate nearest to got, or "" when none is near
// enough to be what the user meant: within the edit distance its length
// allows (adjacent letters swapped count once), or, failing that, one that
// begins with got or with which got begins.
func Nearest(got string, candidates []string) string {
	best, bestDist := "", maxDistance(got)+1
	for _, c := range candidates {
		if d := distance(got, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	if best != "" || len(got) < 2 {
		return best
	}
	for _, c := range candidates {
		if len(c) > 1 && (strings.HasPrefix(c, got) || strings.HasPrefix(got, c)) {
			return c
		}
	}
	return ""
}

// maxDistance is how many edits a typo of s may hold: none for one or two
// letters (-x is not a typo of -o), one up to four, then two.
func maxDistance(s string) int {
	switch n := len(s); {
	case n <= 2:
		return 0
	case n <= 4:
		return 1
	}
	return 2
}

// distance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of adjacent bytes.
func distance(a, b string) int {
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// DidYouMean is `; did you mean "s"?`, or "" when s is: the tail a
// diagnostic about an unknown name adds with Nearest's answer.
func DidYouMean(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", s)
}
