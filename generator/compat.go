package generator

import "slices"

// CompatOption configures Compat.
type CompatOption func(*compatConfig)

type compatConfig struct {
	full  bool
	usage compatUsage
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
	bm, bds := build(base)
	nm, nds := build(next)
	if errs := append(bds.Errors(), nds.Errors()...); len(errs) > 0 {
		return errs
	}
	return compatModels(bm, nm, cfg)
}

// compatItem is one payload that travels: an event, a command, or one side
// of an RPC, with what compat compares.
type compatItem struct {
	domain   string
	name     string // the Go type's name: OrderPlaced, GetOrderSummaryRequest
	kind     string // event, command, stream, rpc-request or rpc-response
	pos      Pos
	keyLabel string // "routing key" or "queue"
	key      string
	codec    string // with " (encrypted)" when encrypted
	record   *recordModel
}

// compatItems lists the payloads of d that travel.
func compatItems(d *domain) []compatItem {
	if d == nil {
		return nil
	}
	var out []compatItem
	for _, m := range d.Messages {
		out = append(out, compatItem{domain: d.Name, name: m.Name, kind: m.Kind.String(), pos: m.Pos, keyLabel: "routing key",
			key: m.RoutingKey, codec: compatCodec(m.Codec, m.Encrypted), record: m.Record})
	}
	for _, m := range d.Streams {
		out = append(out, compatItem{name: m.Name, kind: "stream", pos: m.Pos, keyLabel: "stream",
			key: m.Queue, codec: compatCodec(m.Codec, m.Encrypted), record: m.Record})
	}
	return append(out, compatRPCItems(d)...)
}

// compatModels checks every payload of base against its successor in next.
func compatModels(base, next *model, cfg compatConfig) Diagnostics {
	d := &diags{}
	for _, bd := range base.Domains {
		nd := compatDomain(next, bd.Name)
		nitems := compatItems(nd)
		for _, b := range compatItems(bd) {
			i := slices.IndexFunc(nitems, func(n compatItem) bool { return n.name == b.name })
			if i < 0 {
				d.errorf(compatRemovedPos(nd, b), "%s: removed; %s", b.name, compatRoleOf(b.kind).removed)
				continue
			}
			compatCompare(d, b, nitems[i], cfg)
		}
	}
	return d.sorted()
}

func compatDomain(m *model, name string) *domain {
	i := slices.IndexFunc(m.Domains, func(d *domain) bool { return d.Name == name })
	if i < 0 {
		return nil
	}
	return m.Domains[i]
}

// compatCompare reports what breaks between b and its successor n.
func compatCompare(d *diags, b, n compatItem, cfg compatConfig) {
	if n.kind != b.kind {
		d.errorf(n.pos, "%s: was %s in BASE and is %s now; %s", b.name, compatArticle(b.kind),
			compatArticle(n.kind), compatRoleOf(b.kind).removed)
		return
	}
	compatWire(d, b, n)
	compatSchemas(d, b, n, cfg)
}

// compatRemovedPos places a removed payload's finding on its domain in next,
// or, when the whole domain is gone, where the payload was in base.
func compatRemovedPos(nd *domain, b compatItem) Pos {
	if nd != nil {
		return nd.Pos
	}
	return b.pos
}

// compatWire reports the envelope-level changes that strand readers or
// writers built from base whatever the schema says.
func compatWire(d *diags, b, n compatItem) {
	r := compatRoleOf(b.kind)
	if b.key != n.key {
		d.errorf(n.pos, "%s: %s changed from %q to %q; %s", n.name, b.keyLabel, b.key, n.key, r.routing)
	}
	if b.codec != n.codec {
		d.errorf(n.pos, "%s: codec changed from %s to %s; %s", n.name, b.codec, n.codec, r.codec)
	}
}

func compatCodec(codec string, encrypted bool) string {
	if encrypted {
		return codec + " (encrypted)"
	}
	return codec
}

func compatArticle(kind string) string {
	if kind != "" && kind[0] == 'e' {
		return "an " + kind
	}
	return "a " + kind
}
