package generator

import (
	"fmt"
	"strings"
)

// FieldReader is one read of a payload field by a consuming service: the
// service and where (file:line), as the usage graph records it.
type FieldReader struct {
	Service string
	Pos     string
}

// CompatUsage makes Compat judge a removed or retyped field of an event by
// who reads it: readers returns the consumers of the domain's message that
// read field (a dotted path: lines.sku), or read every field. A change no
// consumer reads is a warning, a note that it breaks nobody; a break names
// each reader. name is what the note calls the usage (its file).
func CompatUsage(name string, readers func(domain, message, field string) []FieldReader) CompatOption {
	return func(c *compatConfig) { c.usage = compatUsage{name: name, readers: readers} }
}

// compatUsage is who reads what, when Compat was given it.
type compatUsage struct {
	name    string
	readers func(domain, message, field string) []FieldReader
}

// report records finding f of n's check c, rendered as msg: an error, or a
// warning when the usage shows no consumer reads an event's changed field.
func (u compatUsage) report(d *diags, n compatItem, f compatFinding, c compatCheck, msg string) {
	pos := compatPos(n, f)
	if u.readers == nil || n.kind != "event" || c.dir != compatForward || len(f.path) == 0 {
		d.errorf(pos, "%s", msg)
		return
	}
	rs := u.readers(n.domain, n.name, compatUsagePath(f.path))
	if len(rs) == 0 {
		d.warnf(pos, "%s; no consumer reads it (usage %s), so it breaks nobody", msg, u.name)
		return
	}
	var who []string
	for _, r := range rs {
		who = append(who, fmt.Sprintf("%s at %s", r.Service, r.Pos))
	}
	d.errorf(pos, "%s; read by %s", msg, strings.Join(who, ", "))
}

// compatUsagePath is a finding's path as the usage graph names fields:
// dotted, without the [] and {} of arrays and maps.
func compatUsagePath(path []string) string {
	var parts []string
	for _, p := range path {
		if p != "[]" && p != "{}" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ".")
}
