package site

import (
	"encoding/json"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/compat"
	"github.com/acemq/acemq-gen/generator"
)

// History is each message's versions, by msgKey (domain, name), newest
// first.
type History map[string][]Version

// Version is one commit that changed a message: the commit, and compat's
// verdict against the message's previous version.
type Version struct {
	Commit, Short, Subject string
	// Verdict is "added", "compatible" or "breaking"; Problems are compat's
	// findings on the message against its previous version.
	Verdict  string
	Problems []string
}

// NewHistory is the versions of every message through revs (oldest
// first): a revision whose catalog entry of a message differs from the
// last one is a version of it. A revision whose contracts have errors is
// left out.
func NewHistory(revs []compat.Revision) History {
	h := History{}
	last := map[string]string{} // msgKey → the entry as last seen
	var prev []generator.Source // the previous readable revision
	for _, r := range revs {
		entries, _, ds := generator.CatalogContents(r.Sources)
		if ds.HasErrors() {
			continue
		}
		var findings generator.Diagnostics
		if prev != nil {
			findings = generator.Compat(prev, r.Sources)
		}
		for _, e := range entries {
			b, _ := json.Marshal(e) // follows Payload and Response
			key, now := msgKey(e.Domain, e.Name), string(b)
			if last[key] == now {
				continue
			}
			v := Version{Commit: r.Commit, Short: r.Short, Subject: r.Subject, Verdict: "added"}
			if _, seen := last[key]; seen {
				v.Verdict, v.Problems = verdict(e.Name, findings)
			}
			last[key] = now
			h[key] = append([]Version{v}, h[key]...)
		}
		prev = r.Sources
	}
	return h
}

// verdict is "breaking" with compat's errors on the message (an RPC's
// request or response) named name, else "compatible".
func verdict(name string, findings generator.Diagnostics) (string, []string) {
	var problems []string
	for _, d := range findings {
		for _, item := range []string{name, name + "Request", name + "Response"} {
			if d.Severity == generator.Error && strings.HasPrefix(d.Message, item+": ") {
				problems = append(problems, d.Message)
			}
		}
	}
	if len(problems) > 0 {
		return "breaking", problems
	}
	return "compatible", nil
}
