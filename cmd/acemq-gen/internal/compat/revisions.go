package compat

import (
	"context"

	"github.com/acemq/acemq-gen/generator"
)

// Revision is the contracts as one commit of their history holds them.
type Revision struct {
	Commit, Short, Subject string
	Sources                []generator.Source
}

// Revisions is every committed version of the contract files of next
// (following renames), oldest first, as compat --history reads them; with
// since, only that commit and the ones after it.
func Revisions(ctx context.Context, next []generator.Source, since string) ([]Revision, error) {
	top, histories, err := readHistories(ctx, next, since)
	if err != nil {
		return nil, err
	}
	var out []Revision
	for _, c := range historyCommits(histories) {
		names, err := namesAt(ctx, top, c.hash, histories)
		if err != nil {
			return nil, err
		}
		srcs, err := gitReadAll(ctx, top, c.hash, names)
		if err != nil {
			return nil, err
		}
		out = append([]Revision{{Commit: c.hash, Short: c.short, Subject: c.subject, Sources: srcs}}, out...)
	}
	return out, nil
}
