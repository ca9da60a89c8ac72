package generator

import (
	"strconv"
	"strings"
)

// A domain may be split over several YAML contracts that name it: they
// become one domain, generated as if one file held them all (in path order).
// The domain's settings are shared: a file that gives one must agree with
// the others that give it, and a file that does not takes it from them.

// domainSetting is one file key that is the domain's, not the file's.
type domainSetting struct {
	key string
	// get returns the setting's value as text and its position; given is
	// false when the file does not hold it (or holds a value of the wrong kind).
	get  func(f *syntaxFile) (text string, p Pos, given bool)
	copy func(dst, src *syntaxFile)
}

// domainSettings are the keys every file of one domain shares.
var domainSettings = []domainSetting{
	strSetting("package", func(f *syntaxFile) *sStr { return &f.Package }),
	strSetting("namespace", func(f *syntaxFile) *sStr { return &f.Namespace }),
	strSetting("doc", func(f *syntaxFile) *sStr { return &f.Doc }),
	strSetting("codec", func(f *syntaxFile) *sStr { return &f.Codec }),
	strSetting("set-aside-queues", func(f *syntaxFile) *sStr { return &f.SetAside }),
	strSetting("schedule-ladder", func(f *syntaxFile) *sStr { return &f.ScheduleLadder }),
	{key: "encrypted", get: func(f *syntaxFile) (string, Pos, bool) {
		return strconv.FormatBool(f.Encrypted.V), f.Encrypted.P, f.Encrypted.Set
	}, copy: func(dst, src *syntaxFile) { dst.Encrypted = src.Encrypted }},
	{key: "retry", get: func(f *syntaxFile) (string, Pos, bool) {
		if f.Retry == nil {
			return "", Pos{}, false
		}
		return retryText(f.Retry), f.Retry.P, true
	}, copy: func(dst, src *syntaxFile) { dst.Retry = src.Retry }},
}

func strSetting(key string, field func(*syntaxFile) *sStr) domainSetting {
	return domainSetting{key: key, get: func(f *syntaxFile) (string, Pos, bool) {
		s := field(f)
		return strconv.Quote(s.V), s.P, s.Set
	}, copy: func(dst, src *syntaxFile) { *field(dst) = *field(src) }}
}

// retryText is a retry policy's keys as the contract gives them.
func retryText(r *syntaxRetry) string {
	var keys []string
	if r.Attempts.Set {
		keys = append(keys, "attempts: "+strconv.Itoa(r.Attempts.V))
	}
	for _, k := range []struct {
		key string
		v   sStr
	}{{"backoff", r.Backoff}, {"initial", r.Initial}, {"max", r.Max}, {"max-age", r.MaxAge}} {
		if k.v.Set {
			keys = append(keys, k.key+": "+k.v.V)
		}
	}
	return "{" + strings.Join(keys, ", ") + "}"
}

// shareDomainSettings makes the YAML contracts that name one domain agree on
// its settings: a disagreement is reported at the later file, pointing at
// the first that gave the setting, and a file without a setting takes it
// from that first file. files are in path order.
func shareDomainSettings(files []*syntaxFile, d *diags) {
	groups := map[string][]*syntaxFile{}
	for _, f := range files {
		if !f.Avro && f.Domain.Set {
			groups[f.Domain.V] = append(groups[f.Domain.V], f)
		}
	}
	for _, group := range groups {
		for _, s := range domainSettings {
			s.share(group, d)
		}
	}
}

func (s domainSetting) share(group []*syntaxFile, d *diags) {
	var from *syntaxFile
	for _, f := range group {
		text, p, given := s.get(f)
		if !given {
			continue
		}
		if from == nil {
			from = f
			continue
		}
		if first, at, _ := s.get(from); text != first {
			d.errorf(p, "domain %s: %s is %s here but %s at %s; the files of one domain share its settings",
				f.Domain.V, s.key, text, first, at)
		}
	}
	for _, f := range group {
		if _, _, given := s.get(f); !given && from != nil {
			s.copy(f, from)
		}
	}
}

// joinSplit makes r, a YAML contract of a domain an earlier file of the run
// declared, part of that domain: its types, messages and RPCs are declared
// there, among the other files' names.
func (w *world) joinSplit(r *resolver) {
	if r.f.Avro || r.dom.Library {
		return
	}
	first := w.named[r.dom.Name]
	if first == nil {
		w.named[r.dom.Name] = r
		return
	}
	r.dom, r.records = first.dom, first.records
	r.merged, r.into = true, first
}
