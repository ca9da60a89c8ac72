package generator

import (
	"go/token"
	"regexp"
	"strings"
)

var (
	domainRE     = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	namespaceRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
	packageRE    = regexp.MustCompile(`^[a-z][a-z0-9]*$`)
	typeNameRE   = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	fieldNameRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	headerNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	routingKeyRE = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)
	queueNameRE  = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.:-]*$`)
)

func validPackage(s string) bool { return packageRE.MatchString(s) && !token.IsKeyword(s) }

// validateDomain checks the names of one resolved domain: the wire names,
// Go-name collisions and cycles of records that contain themselves.
func validateDomain(dom *domain, d *diags) {
	for _, rec := range dom.Records {
		checkTypeName(rec, "type", d)
		checkFields(rec, "", d)
	}
	for _, m := range payloads(dom) {
		checkMessage(m, d)
		checkFields(m.Record, m.Codec, d)
		checkUnionCodec(m.Pos, m.Kind.String()+" "+m.Name, m.Codec, m.Record, d)
	}
	for _, r := range dom.RPCs {
		checkRPC(r, d)
	}
	checkXMLCodecs(dom, d)
	checkRouting(dom, d)
	checkStreamQueues(dom, d)
	checkGoNames(dom, d)
	checkCycles(dom, d)
	checkBound(dom, d)
}

func checkTypeName(rec *recordModel, what string, d *diags) {
	if !typeNameRE.MatchString(rec.Name) {
		d.errorf(rec.Pos, "bad %s name %q: UpperCamelCase letters and digits, such as OrderPlaced", what, rec.Name)
	}
}

func checkMessage(m *message, d *diags) {
	checkTypeName(m.Record, m.Kind.String(), d)
	if m.Kind != streamKind && !routingKeyRE.MatchString(m.RoutingKey) {
		d.errorf(m.Pos, "%s %s: bad routing key %q: words of letters, digits, '-' or '_' joined by '.', no wildcards", m.Kind, m.Name, m.RoutingKey)
	}
	if m.Kind != eventKind && (!queueNameRE.MatchString(m.Queue) || strings.HasPrefix(m.Queue, "amq.")) {
		d.errorf(m.Pos, "%s %s: bad queue name %q: letters, digits, '.', '-', '_' or ':', not starting with amq.", m.Kind, m.Name, m.Queue)
	}
	for _, h := range m.Headers {
		checkHeader(m, h, d)
	}
	checkRawPayload(m, d)
}

// checkRawPayload requires a text or bytes message to carry exactly one
// field of the codec's type, which is what travels on the wire.
func checkRawPayload(m *message, d *diags) {
	c, _ := codecNamed(m.Codec)
	want := c.raw
	if want == "" {
		return
	}
	fs := m.Record.Fields
	if len(fs) != 1 || fs[0].Type == nil || fs[0].Type.Kind != primitiveKind || fs[0].Type.Prim != want {
		d.errorf(m.Pos, "%s %s: codec %s carries one value, so the message has exactly one field, of type %s", m.Kind, m.Name, m.Codec, want)
	}
}

func checkHeader(m *message, h *header, d *diags) {
	switch {
	case strings.HasPrefix(strings.ToLower(h.Name), "x-acemq-"):
		d.errorf(h.Pos, "header %q is in the reserved \"x-acemq-\" namespace; use a namespace of your own, such as x-yourcompany-", h.Name)
	case !headerNameRE.MatchString(h.Name):
		d.errorf(h.Pos, "bad header name %q: letters, digits, '.', '-' or '_'", h.Name)
	}
}

func checkRPC(r *rpc, d *diags) {
	if !typeNameRE.MatchString(r.Name) {
		d.errorf(r.Pos, "bad rpc name %q: UpperCamelCase letters and digits, such as GetOrderSummary", r.Name)
	}
	checkFields(r.Request, "", d)
	checkFields(r.Response, "", d)
	if !queueNameRE.MatchString(r.Queue) || strings.HasPrefix(r.Queue, "amq.") {
		d.errorf(r.Pos, "rpc %s: bad queue name %q: letters, digits, '.', '-', '_' or ':', not starting with amq.", r.Name, r.Queue)
	}
	checkUnionCodec(r.Pos, "rpc "+r.Name, r.Codec, r.Request, d)
	checkUnionCodec(r.Pos, "rpc "+r.Name, r.Codec, r.Response, d)
}

// checkUnionCodec refuses what a payload's codec cannot carry: a
// multi-branch union with yaml, toml, text or bytes (those codecs do not call
// UnmarshalJSON; json and the Avro codecs carry unions), a union in a record
// of another package with Avro (its mirror is that package's), and an
// optional map with Avro (hamba/avro cannot write a nil-able map as a union).
func checkUnionCodec(p Pos, what, codec string, rec *recordModel, d *diags) {
	if codec == codecJSON || codec == codecXML {
		return // xml: checkXMLCodecs
	}
	if f := findField(rec, isKind(unionKind), map[*recordModel]bool{}); f != nil && !isAvro(codec) {
		d.errorf(p, "%s: codec %s cannot carry the union of field %s (a sealed Go interface); multi-branch unions travel with json, avro and avro-registered only", what, codec, f.Name)
	}
	if !isAvro(codec) {
		return
	}
	if f := findField(rec, foreignUnion(rec.Owner), map[*recordModel]bool{}); f != nil {
		d.errorf(p, "%s: codec %s cannot carry the union of field %s, which another package declares; declare the record in this domain or use json", what, codec, f.Name)
	}
	if f := findField(rec, isOptionalMap, map[*recordModel]bool{}); f != nil {
		d.errorf(p, "%s: codec %s cannot carry the optional map of field %s; drop the '?' (an empty map is the absent value) or use json", what, codec, f.Name)
	}
}

// foreignUnion matches a record of another package than dom that holds a union.
func foreignUnion(dom *domain) func(*typ) bool {
	return func(t *typ) bool { return t.Kind == namedKind && t.Record.Owner != dom && isUnionRecord(t.Record) }
}

// checkXMLCodecs refuses, at the field, what XML cannot carry faithfully in
// the xml payloads of dom or a record they reach: maps, multi-branch unions,
// lists of lists. A field reached by several payloads is reported once.
func checkXMLCodecs(dom *domain, d *diags) {
	seen := map[*recordModel]bool{}
	for _, m := range payloads(dom) {
		if m.Codec == codecXML {
			checkXMLPayload(m.Kind.String()+" "+m.Name, m.Record, seen, d)
		}
	}
	for _, r := range dom.RPCs {
		if r.Codec == codecXML {
			checkXMLPayload("rpc "+r.Name, r.Request, seen, d)
			checkXMLPayload("rpc "+r.Name, r.Response, seen, d)
		}
	}
}

func checkXMLPayload(what string, payload *recordModel, seen map[*recordModel]bool, d *diags) {
	for _, r := range xmlRecords(payload, seen) {
		for _, f := range r.Fields {
			if why := xmlProblem(f.Type, false); why != "" {
				d.errorf(f.Pos, "field %q of %s %s%s", f.Name, r.Name, why, xmlContext(what, payload, r))
			}
		}
	}
}

// xmlContext names the payload that makes a record travel as XML, when the
// record is not that payload itself.
func xmlContext(what string, payload, rec *recordModel) string {
	if rec == payload {
		return ""
	}
	return " (" + what + " travels as xml)"
}

func isOptionalMap(t *typ) bool { return t.Kind == optionalKind && t.Elem.Kind == mapKind }

// checkRouting refuses two events or commands on one routing key, and two
// commands (or RPCs) on one queue: their consumers could not tell them apart.
func checkRouting(dom *domain, d *diags) {
	keys, queues := map[string]*message{}, map[string]symbol{}
	for _, r := range dom.RPCs {
		if other, taken := queues[r.Queue]; taken {
			d.errorf(r.Pos, "rpc %s uses queue %q, already used by %s at %s", r.Name, r.Queue, other.what, other.pos)
		}
		queues[r.Queue] = symbol{what: "rpc " + r.Name, pos: r.Pos}
	}
	for _, m := range dom.Messages {
		if other := keys[m.RoutingKey]; other != nil {
			d.errorf(m.Pos, "%s %s uses routing key %q, already used by %s %s at %s", m.Kind, m.Name, m.RoutingKey, other.Kind, other.Name, other.Pos)
		}
		keys[m.RoutingKey] = m
		if m.Kind != commandKind {
			continue
		}
		if other, taken := queues[m.Queue]; taken {
			d.errorf(m.Pos, "command %s uses queue %q, already used by %s at %s", m.Name, m.Queue, other.what, other.pos)
		}
		queues[m.Queue] = symbol{what: "command " + m.Name, pos: m.Pos}
	}
}

// ValidDomain reports whether s is a domain name: lower-case words of
// letters and digits joined by '-'.
func ValidDomain(s string) bool { return domainRE.MatchString(s) }
