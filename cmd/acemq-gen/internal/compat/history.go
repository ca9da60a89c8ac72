package compat

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator"
)

// compat --history: the working tree's contracts against every committed
// version of each contract file, following renames, so a change must stay
// compatible with every version a consumer fleet may still run.

// historyCommit is one commit that changed a contract file.
type historyCommit struct {
	hash, short, subject string
}

// label names the commit in a diagnostic: its short hash and subject line.
func (c historyCommit) label() string { return fmt.Sprintf("%s %q", c.short, c.subject) }

// contractHistory is every commit that changed one contract file, newest
// first, and every name the file had in them.
type contractHistory struct {
	commits []historyCommit
	names   []string // slash paths relative to the repository root
}

// History runs the role-aware checks of --against once per commit in
// the contracts' history; every break names the commit, the message and the
// field.
func History(ctx context.Context, a Options, stdout, stderr io.Writer) int {
	next, ok := ops.ReadSources(a.Paths, stderr)
	if !ok {
		return ops.ExitFindings
	}
	top, histories, err := readHistories(ctx, next, a.Since)
	if err != nil {
		fmt.Fprintf(stderr, "acemq-gen compat: reading the history: %s\n", err)
		return ops.ExitUsage
	}
	commits := historyCommits(histories)
	breaks := 0
	for _, c := range commits {
		n, err := compatCommit(ctx, top, c, histories, next, a, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "acemq-gen compat: reading commit %s: %s\n", c.label(), err)
			return ops.ExitUsage
		}
		breaks += n
	}
	if breaks > 0 {
		return ops.ExitFindings
	}
	_, messages := generator.Count(next)
	fmt.Fprintf(stdout, "compat: %s checked against %s of history; nothing breaks\n", ops.Plural(messages, "message"), ops.Plural(len(commits), "commit"))
	return ops.ExitOK
}

// compatCommit checks next against the contracts at commit c and prints
// each break with the commit; it returns how many errors it printed.
func compatCommit(ctx context.Context, top string, c historyCommit, hs []contractHistory, next []generator.Source, a Options, stderr io.Writer) (int, error) {
	names, err := namesAt(ctx, top, c.hash, hs)
	if err != nil {
		return 0, err
	}
	base, err := gitReadAll(ctx, top, c.hash, names)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, d := range generator.Compat(base, next, a.CompatOptions()...) {
		fmt.Fprintf(stderr, "%s (against commit %s)\n", d, c.label())
		if d.Severity == generator.Error {
			n++
		}
	}
	return n, nil
}

// readHistories finds the repository of the contracts and the history of
// each contract file it tracks; since, when set, keeps the commits from that
// revision on (the revision itself included).
func readHistories(ctx context.Context, next []generator.Source, since string) (string, []contractHistory, error) {
	if len(next) == 0 {
		return "", nil, fmt.Errorf("no contracts")
	}
	top, _, err := gitRoot(ctx, filepath.Dir(next[0].Path))
	if err != nil {
		return "", nil, err
	}
	var sinceCommit *historyCommit
	if since != "" {
		c, err := commitOf(ctx, top, since)
		if err != nil {
			return "", nil, err
		}
		sinceCommit = &c
	}
	var hs []contractHistory
	for _, src := range next {
		rel, err := repoPath(top, src.Path)
		if err != nil {
			return "", nil, err
		}
		h, err := fileHistory(ctx, top, rel, sinceCommit)
		if err != nil {
			return "", nil, err
		}
		if len(h.commits) > 0 {
			hs = append(hs, h)
		}
	}
	return top, hs, nil
}

// repoPath is p's slash path relative to the repository root top.
func repoPath(top, p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is outside the repository %s", p, top)
	}
	return filepath.ToSlash(rel), nil
}

// fileHistory lists the commits that changed rel, following renames, with
// every name the file had (git log --follow --name-only); since, when set,
// keeps the commits after it and adds it.
func fileHistory(ctx context.Context, top, rel string, since *historyCommit) (contractHistory, error) {
	out, err := git(ctx, top, "log", "--follow", "--name-only", "--format=%x01%H%x00%h%x00%s", "--", rel)
	if err != nil {
		return contractHistory{}, err
	}
	var keep map[string]bool
	if since != nil {
		if keep, err = commitsAfter(ctx, top, since.hash); err != nil {
			return contractHistory{}, err
		}
	}
	var h contractHistory
	for rec := range strings.SplitSeq(string(out), "\x01") {
		head, files, _ := strings.Cut(rec, "\n")
		parts := strings.SplitN(head, "\x00", 3)
		if len(parts) < 3 {
			continue
		}
		if keep == nil || keep[parts[0]] {
			h.commits = append(h.commits, historyCommit{parts[0], parts[1], parts[2]})
		}
		for n := range strings.SplitSeq(files, "\n") {
			if n = strings.TrimSpace(n); n != "" && !slices.Contains(h.names, n) {
				h.names = append(h.names, n)
			}
		}
	}
	if since != nil && len(h.names) > 0 && !slices.ContainsFunc(h.commits, func(c historyCommit) bool { return c.hash == since.hash }) {
		h.commits = append(h.commits, *since)
	}
	return h, nil
}

// commitsAfter is the set of commits of since..HEAD.
func commitsAfter(ctx context.Context, top, since string) (map[string]bool, error) {
	out, err := git(ctx, top, "rev-list", "--end-of-options", since+"..HEAD", "--")
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, h := range strings.Fields(string(out)) {
		set[h] = true
	}
	return set, nil
}

// commitOf resolves rev, a user's revision, to a commit.
func commitOf(ctx context.Context, top, rev string) (historyCommit, error) {
	if err := checkRevision(rev); err != nil {
		return historyCommit{}, err
	}
	out, err := git(ctx, top, "log", "-1", "--format=%H%x00%h%x00%s", "--end-of-options", rev+"^{commit}", "--")
	if err != nil {
		return historyCommit{}, err
	}
	parts := strings.SplitN(strings.TrimSpace(string(out)), "\x00", 3)
	if len(parts) < 3 {
		return historyCommit{}, fmt.Errorf("%s names no commit", rev)
	}
	return historyCommit{parts[0], parts[1], parts[2]}, nil
}

// historyCommits is every commit of the histories once, newest first as the
// first history lists them.
func historyCommits(hs []contractHistory) []historyCommit {
	var out []historyCommit
	seen := map[string]bool{}
	for _, h := range hs {
		for _, c := range h.commits {
			if !seen[c.hash] {
				seen[c.hash] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// namesAt lists the contract files present at commit, each history's file
// under the name it had there (a file absent there contributes nothing).
func namesAt(ctx context.Context, top, commit string, hs []contractHistory) ([]string, error) {
	var all []string
	for _, h := range hs {
		all = append(all, h.names...)
	}
	out, err := git(ctx, top, append([]string{"ls-tree", "-r", "-z", "--name-only", "--full-tree", "--end-of-options", commit, "--"}, all...)...)
	if err != nil {
		return nil, err
	}
	present := map[string]bool{}
	for n := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		present[n] = true
	}
	var names []string
	for _, h := range hs {
		// the newest name present: a file renamed and later re-created is read once
		if i := slices.IndexFunc(h.names, func(n string) bool { return present[n] }); i >= 0 && !slices.Contains(names, h.names[i]) {
			names = append(names, h.names[i])
		}
	}
	return names, nil
}
