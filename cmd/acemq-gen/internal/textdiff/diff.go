// Package textdiff renders the line differences of two texts in unified
// format, in time and memory bounded by the size of the texts (acemq-gen
// check prints it for a stale generated file).
package textdiff

import (
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// op is one line of an edit script: ' ' kept, '-' removed, '+' added.
type op struct {
	kind byte
	line string
}

// Unified renders the line differences of a and b in unified format.
func Unified(nameA, nameB, a, b string) string {
	ops := editScript(splitLines(a), splitLines(b))
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", nameA, nameB)
	for _, h := range hunks(ops) {
		writeHunk(&sb, ops, h)
	}
	return sb.String()
}

func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// editScript is a shortest edit script from a to b by longest common
// subsequence, after trimming the common prefix and suffix.
func editScript(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for _, l := range a[:pre] {
		ops = append(ops, op{' ', l})
	}
	ops = append(ops, lcsScript(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, op{' ', l})
	}
	return ops
}

// maxDiffCells bounds the longest-common-subsequence table (len(a)*len(b)
// entries of the changed middle, 4 bytes each: 64 MiB). A larger change is
// shown as every old line removed and every new line added: a correct diff,
// not a minimal one, in time and memory linear in the files.
const maxDiffCells = 1 << 24

func lcsScript(a, b []string) []op {
	n, m := len(a), len(b)
	if n*m > maxDiffCells {
		return replaceScript(a, b)
	}
	dp := make([][]int32, n+1)
	for i := range dp {
		dp[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return walkLCS(a, b, dp)
}

func walkLCS(a, b []string, dp [][]int32) []op {
	var ops []op
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops, i, j = append(ops, op{' ', a[i]}), i+1, j+1
		case i < len(a) && (j == len(b) || dp[i+1][j] >= dp[i][j+1]):
			ops, i = append(ops, op{'-', a[i]}), i+1
		default:
			ops, j = append(ops, op{'+', b[j]}), j+1
		}
	}
	return ops
}

// hunk is a range of ops to print.
type hunk struct{ from, to int }

// hunks groups the changed ops with their context, merging hunks that touch.
func hunks(ops []op) []hunk {
	var out []hunk
	for i, o := range ops {
		if o.kind == ' ' {
			continue
		}
		from, to := max(0, i-diffContext), min(len(ops), i+diffContext+1)
		if len(out) > 0 && out[len(out)-1].to >= from {
			out[len(out)-1].to = to
			continue
		}
		out = append(out, hunk{from, to})
	}
	return out
}

func writeHunk(sb *strings.Builder, ops []op, h hunk) {
	lineA, lineB := 1, 1
	for _, o := range ops[:h.from] {
		lineA, lineB = advance(o, lineA, lineB)
	}
	countA, countB := 0, 0
	for _, o := range ops[h.from:h.to] {
		countA, countB = advance(o, countA, countB)
	}
	fmt.Fprintf(sb, "@@ -%d,%d +%d,%d @@\n", lineA, countA, lineB, countB)
	for _, o := range ops[h.from:h.to] {
		sb.WriteString(string(o.kind) + strings.TrimSuffix(o.line, "\n") + "\n")
	}
}

func advance(o op, a, b int) (int, int) {
	if o.kind != '+' {
		a++
	}
	if o.kind != '-' {
		b++
	}
	return a, b
}

// replaceScript removes every line of a and adds every line of b.
func replaceScript(a, b []string) []op {
	ops := make([]op, 0, len(a)+len(b))
	for _, l := range a {
		ops = append(ops, op{'-', l})
	}
	for _, l := range b {
		ops = append(ops, op{'+', l})
	}
	return ops
}
