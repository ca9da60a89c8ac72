package generator

import (
	"fmt"

	"github.com/hamba/avro/v2"
)

// Held is one version of a subject a schema registry holds.
type Held struct {
	// Version is the subject's version number; ID the schema's global id.
	Version, ID int
	// Schema is the Avro schema text the registry returned.
	Schema string
}

// The rules of the registry check, by the role of the message.
const (
	heldEventRule   = "an event must stay readable by every reader the registry holds for its subject"
	heldCommandRule = "a command's new reader must read what every writer the registry holds for its subject wrote"
)

// CompatHeld checks the schema of every avro-registered message of srcs
// against each version held[subject] lists, with Compat's role-aware rules:
// an event's new schema must be readable by every registered schema
// (forward), a command's new schema must read every registered one
// (backward). Each break is one error naming the message, the subject, the
// version and the field, positioned where the field is in srcs. A subject
// held has no entry for is new and breaks nothing.
//
// When the contracts have errors it returns those. Safe for concurrent use.
func CompatHeld(srcs []Source, held map[string][]Held) (ds Diagnostics) {
	defer recoverInternal(&ds)
	m, bds := build(srcs)
	if bds.HasErrors() {
		return bds.Errors()
	}
	d := &diags{}
	for _, dom := range m.Domains {
		for _, msg := range payloads(dom) {
			if msg.Codec != codecAvroRegistered {
				continue
			}
			for _, h := range held[msg.Subject] {
				compatHeldVersion(d, msg, h)
			}
		}
	}
	return d.sorted()
}

// compatHeldVersion checks msg's schema against one registered version.
func compatHeldVersion(d *diags, msg *message, h Held) {
	n := compatItem{name: fmt.Sprintf("%s: subject %q version %d", msg.Name, msg.Subject, h.Version),
		kind: msg.Kind.String(), pos: msg.Pos, record: msg.Record}
	next, err := compatParse(msg.Record)
	if err != nil {
		d.errorf(n.pos, "%s: %v", n.name, err)
		return
	}
	base, err := avro.ParseWithCache(h.Schema, "", &avro.SchemaCache{})
	if err != nil {
		d.errorf(n.pos, "%s: the registry's schema (id %d) is not valid Avro: %v", n.name, h.ID, err)
		return
	}
	c := compatCheck{dir: compatForward, rule: heldEventRule, base: fmt.Sprintf("version %d", h.Version)}
	if msg.Kind == commandKind {
		c.dir, c.rule = compatBackward, heldCommandRule
	}
	compatDirection(d, n, base, next, c, compatUsage{})
}
