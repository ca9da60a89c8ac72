package generator

import (
	"fmt"
	"slices"
)

// CompatOption configures Compat.
type CompatOption func(*compatConfig)

type compatConfig struct {
	full bool
}

// CompatFull demands both directions for every message: what the new schema
// writes must be readable with the BASE schema and what the BASE schema wrote
// must be readable with the new one. Without it (the default) each message is
// checked in the direction its role needs (see Compat).
func CompatFull() CompatOption {
	return func(c *compatConfig) { c.full = true }
}

// Compat compares the contracts in next with those in base (the baseline: a
// released version) and returns one error diagnostic per breaking change,
// each naming the message, the field and the rule, positioned in next where
// the change is.
//
// A domain's contract belongs to the service that owns the domain: it
// publishes the events and RPC responses and consumes the commands and RPC
// requests. So events and responses must stay readable by readers built from
// base (forward: base reader, new writer) and commands and requests must read
// what writers built from base send (backward: new reader, base writer).
// Avro's resolution rules decide, through hamba/avro's SchemaCompatibility,
// as the runtime's ReaderSchema does. A message removed from next is a
// breaking change; a new message is not. Messages are matched by domain and
// name, so moving a contract to another file changes nothing.
//
// When either side has errors, Compat returns those diagnostics instead.
// Safe for concurrent use.
func Compat(base, next []Source, opts ...CompatOption) (ds Diagnostics) {
	defer recoverInternal(&ds)
	var cfg compatConfig
	for _, o := range opts {
		o(&cfg)
	}
	bm, bds := Build(base)
	nm, nds := Build(next)
	if errs := append(bds.Errors(), nds.Errors()...); len(errs) > 0 {
		return errs
	}
	return compatModels(bm, nm, cfg)
}

// compatModels checks every message of base against its successor in next.
func compatModels(base, next *Model, cfg compatConfig) Diagnostics {
	d := &diags{}
	for _, bd := range base.Domains {
		nd := compatDomain(next, bd.Name)
		for _, bm := range bd.Messages {
			compatCompareMessage(d, bd, nd, bm, cfg)
		}
	}
	return d.sorted()
}

func compatDomain(m *Model, name string) *Domain {
	i := slices.IndexFunc(m.Domains, func(d *Domain) bool { return d.Name == name })
	if i < 0 {
		return nil
	}
	return m.Domains[i]
}

func compatMessage(d *Domain, name string) *Message {
	if d == nil {
		return nil
	}
	i := slices.IndexFunc(d.Messages, func(m *Message) bool { return m.Name == name })
	if i < 0 {
		return nil
	}
	return d.Messages[i]
}

// compatCompareMessage reports what breaks between bm and its successor in nd.
func compatCompareMessage(d *diags, bd, nd *Domain, bm *Message, cfg compatConfig) {
	nm := compatMessage(nd, bm.Name)
	switch {
	case nm == nil:
		d.errorf(compatRemovedPos(bd, nd, bm), "%s: removed; %s", bm.Name, compatRoleOf(bm).removed)
	case nm.Kind.String() != bm.Kind.String():
		d.errorf(nm.Pos, "%s: was %s in BASE and is %s now; %s", bm.Name, compatArticle(bm.Kind.String()),
			compatArticle(nm.Kind.String()), compatRoleOf(bm).removed)
	default:
		compatWire(d, bm, nm)
		compatSchemas(d, bm, nm, cfg)
	}
}

// compatRemovedPos places a removed message's finding on its domain in next, or,
// when the whole domain is gone, where the message was in base.
func compatRemovedPos(bd, nd *Domain, bm *Message) Pos {
	if nd != nil {
		return nd.Pos
	}
	return bm.Pos
}

// compatWire reports the envelope-level changes that strand readers or
// writers built from base whatever the schema says.
func compatWire(d *diags, bm, nm *Message) {
	r := compatRoleOf(bm)
	if bm.RoutingKey != nm.RoutingKey {
		d.errorf(nm.Pos, "%s: routing key changed from %q to %q; %s", nm.Name, bm.RoutingKey, nm.RoutingKey, r.routing)
	}
	if bm.Codec != nm.Codec || bm.Encrypted != nm.Encrypted {
		d.errorf(nm.Pos, "%s: codec changed from %s to %s; %s", nm.Name, compatCodec(bm), compatCodec(nm), r.codec)
	}
}

func compatCodec(m *Message) string {
	if m.Encrypted {
		return fmt.Sprintf("%s (encrypted)", m.Codec)
	}
	return m.Codec
}

func compatArticle(kind string) string {
	if kind != "" && kind[0] == 'e' {
		return "an " + kind
	}
	return "a " + kind
}
