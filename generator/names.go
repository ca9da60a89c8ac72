package generator

import (
	"fmt"
	"strings"
)

// initialisms are the Go initialisms golint and staticcheck spell in capitals;
// CONTRACTS.md fixes the list.
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IP": true, "JSON": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true,
	"TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true, "UUID": true,
	"URI": true, "URL": true, "UTF8": true, "VM": true, "XML": true, "XMPP": true,
	"XSRF": true, "XSS": true,
}

// GoName converts a wire name (camelCase, kebab-case, snake_case or dotted)
// into an exported Go identifier: each word capitalised, initialisms in
// capitals (orderId → OrderID, sku → Sku, x-tenant → XTenant).
func GoName(wire string) string {
	var b strings.Builder
	for _, w := range words(wire) {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + strings.ToLower(w[1:]))
	}
	return b.String()
}

// unexported returns name with its first word in lower case, for generated
// unexported helpers (OrderPlaced → orderPlaced, HTTPCall → httpCall).
func unexported(name string) string {
	ws := splitCamel(name)
	return strings.ToLower(ws[0]) + strings.Join(ws[1:], "")
}

// The naming authority: every Go identifier a generated package declares is
// spelled by this file, and domainNames lists them all, so the collision
// check (checkGoNames) claims exactly what emission writes. A method is
// written Type.Method.

// Handler sets: what the owning service implements and what a subscribing
// service implements.
const (
	handlersSet      = "Handlers"
	eventHandlersSet = "EventHandlers"
)

// fixedNames are the identifiers every domain package declares (some only
// when the domain has events, commands or RPCs; claimed always, so adding a
// message never makes an existing type's name collide).
var fixedNames = []string{"Exchange", "Publisher", "NewPublisher", "Topology", "DeclareTopology", "newTopology",
	handlersSet, unimplementedName(handlersSet), eventHandlersSet, unimplementedName(eventHandlersSet), "Serve", "Subscribe",
	"Server", "Client", "NewClient", "Rules",
	"Server.add", "Server.Close", "Client.Close",
	unimplementedName(handlersSet) + "." + guardName(handlersSet),
	unimplementedName(eventHandlersSet) + "." + guardName(eventHandlersSet),
}

// unimplementedName is the type a handler set's implementations embed.
func unimplementedName(set string) string { return "Unimplemented" + set }

// guardName is the method that makes embedding the Unimplemented type the
// only way to implement a handler set.
func guardName(set string) string { return "mustEmbedUnimplemented" + set }

// handleName is the method of a handler set that handles a message or an RPC.
func handleName(name string) string { return "Handle" + name }

// handlerSet is the set whose method handles m: events are a subscriber's,
// commands the owner's.
func handlerSet(m *Message) string {
	if m.Kind == Event {
		return eventHandlersSet
	}
	return handlersSet
}

// routingKeyName is the constant of a message's routing key.
func routingKeyName(m *Message) string { return m.Name + "RoutingKey" }

// queueName is the queue of a command or an RPC (a constant), or the function
// naming a subscriber's queue of an event.
func queueName(name string) string { return name + "Queue" }

// consumeName is the function that consumes a message.
func consumeName(m *Message) string { return "Consume" + m.Name }

// interceptName is the ConnOption adding a publish interceptor for a message.
func interceptName(m *Message) string { return "Intercept" + m.Name }

// publishName is the Publisher method that publishes an event or sends a command.
func publishName(m *Message) string {
	if m.Kind == Command {
		return "Send" + m.Name
	}
	return "Publish" + m.Name
}

// publishBatchName is the Publisher method that publishes or sends a batch.
func publishBatchName(m *Message) string { return publishName(m) + "Batch" }

// pubField is the Publisher's field holding a message's publisher.
func pubField(m *Message) string { return "pub" + m.Name }

// headerRulesVar is the variable holding a message's header rules.
func headerRulesVar(m *Message) string { return unexported(m.Name) + "HeaderRules" }

// retryName is the function returning a message's retry policy.
func retryName(m *Message) string { return unexported(m.Name) + "Retry" }

// topologyName is the function adding a message's or an RPC's queue to a topology.
func topologyName(name string) string { return unexported(name) + "Topology" }

// consumeOptionsName is the function putting a message's consume options first.
func consumeOptionsName(m *Message) string { return unexported(m.Name) + "ConsumeOptions" }

// codecName is the function building a message's or an RPC's codec from a connection.
func codecName(name string) string { return unexported(name) + "Codec" }

// serveName is the function that serves an RPC.
func serveName(r *RPC) string { return "Serve" + r.Name }

// clientField is the Client's field holding an RPC's client; the Client's
// method calling it is the RPC's name.
func clientField(r *RPC) string { return unexported(r.Name) }

// rpcPayloadName is an RPC's request or response type (part is Request or Response).
func rpcPayloadName(rpc, part string) string { return rpc + part }

// errorName is the variable of a declared RPC error.
func errorName(name string) string { return "Err" + name }

// headerOptionName is the typed EnvelopeOption setting a header.
func headerOptionName(h *Header) string { return "Header" + h.GoName }

// enumConst is the constant of one symbol of an enum.
func enumConst(rec *Record, symbol string) string { return rec.Name + GoName(symbol) }

// fieldTypeName names the types a field's type declares: the interface of a
// union, an inline fixed type.
func fieldTypeName(rec *Record, f *Field) string { return rec.Name + f.GoName }

// mirrorName is the Avro mirror of a record on the way to a union.
func mirrorName(rec *Record) string { return unexported(rec.Name) + "Avro" }

// unionMirror is the avro.UnionConverter of a union.
func unionMirror(u *Type) string { return unexported(u.Iface) + "Avro" }

// branchTypeName is the wrapper type of one branch of a union.
func branchTypeName(u, b *Type) string { return u.Iface + branchName(b) }

// branchName is the part of a branch's wrapper type after the interface's
// name: Long, Quantity, Timestamp-millis → TimestampMillis.
func branchName(t *Type) string {
	switch t.Kind {
	case Named:
		return t.Record.Name
	case Decimal:
		return "Decimal"
	}
	return GoName(t.Prim)
}

// sealName is the method that seals a union's interface to its branches.
func sealName(u *Type) string { return "is" + u.Iface }

// decodeUnionName is the function reading the JSON of a union.
func decodeUnionName(u *Type) string { return "decode" + u.Iface }

// toUnionAvroName is the function wrapping a union in its converter.
func toUnionAvroName(u *Type) string { return "to" + u.Iface + "Avro" }

// The methods of the mirrors and converters on the way to a union.
const (
	toAvroMethod   = "toAvro"   // a record's, returning its mirror
	fromAvroMethod = "fromAvro" // a mirror's, returning the record
)

// unionMirrorMethods are the methods of a union's converter.
var unionMirrorMethods = []string{"value", "ToAny", "FromAny"}

// typeMethods are the methods emission declares on the named type rec:
// the schema methods, Valid of an enum, the text methods of a fixed, the
// JSON methods of a record, the mirror's converter of a record on the way to
// a union, and the methods a text or bytes codec needs of a payload (codec
// is the message's; "" for a type or an RPC's half).
func typeMethods(rec *Record, codec string) []string {
	out := []string{"AvroSchema", "AvroFullSchema", "AvroFingerprint"}
	switch rec.Shape {
	case EnumShape:
		return append(out, "Valid")
	case FixedShape:
		return append(out, "MarshalText", "UnmarshalText")
	}
	out = append(out, "UnmarshalJSON")
	if len(formFields(rec)) > 0 {
		out = append(out, "MarshalJSON")
	}
	if isUnionRecord(rec) {
		out = append(out, toAvroMethod)
	}
	return append(out, rawMethods[codec]...)
}

// rawMethods are the methods generated on text and bytes payloads.
var rawMethods = map[string][]string{
	"text":  {"String", "MarshalText", "UnmarshalText"},
	"bytes": {"MarshalBinary", "UnmarshalBinary"},
}

// optionHeaders are the headers that get an option: the first declaration
// of each header name in the domain.
func optionHeaders(dom *Domain) []*Header {
	var out []*Header
	seen := map[string]bool{}
	for _, m := range dom.Messages {
		for _, h := range m.Headers {
			if !seen[h.Name] {
				seen[h.Name] = true
				out = append(out, h)
			}
		}
	}
	return out
}

// declaredErrors are the first declaration of each RPC error name of the domain.
func declaredErrors(dom *Domain) []*RPCError {
	var out []*RPCError
	seen := map[string]bool{}
	for _, r := range dom.RPCs {
		for _, x := range r.Errors {
			if !seen[x.Name] {
				seen[x.Name] = true
				out = append(out, x)
			}
		}
	}
	return out
}

// goName is one identifier a generated package declares, with the part of
// the contract it comes from and where, as a collision names them. A method
// (Type.Method) also carries recv, the part that declares its type: when
// that part lost its type's name to another, its methods are not claimed.
type goName struct {
	name, what, recv string
	pos              Pos
}

// nameList collects the identifiers of one domain in claiming order.
type nameList []goName

func (l *nameList) add(name, what string, p Pos) {
	*l = append(*l, goName{name: name, what: what, pos: p})
}

// part adds a name a part of the contract owns: "the <name> of <what>".
func (l *nameList) part(name, what string, p Pos) {
	l.add(name, fmt.Sprintf("the %s of %s", name, what), p)
}

// typ adds a named type and its methods.
func (l *nameList) typ(rec *Record, what, codec string, p Pos) {
	l.add(rec.Name, what, p)
	for _, m := range typeMethods(rec, codec) {
		name := rec.Name + "." + m
		*l = append(*l, goName{name: name, what: fmt.Sprintf("the %s of %s", name, what), recv: what, pos: p})
	}
}

// domainNames lists every identifier the package of dom declares, in the
// order the collision check claims them: the fixed names, the types, the
// messages, the RPCs, the unions, the header options.
func domainNames(dom *Domain) []goName {
	var l nameList
	if !dom.Library {
		for _, n := range fixedNames {
			l.add(n, "the generated "+n, dom.Pos)
		}
	}
	for _, rec := range dom.Records {
		l.record(rec)
	}
	for _, m := range dom.Messages {
		l.message(m)
	}
	errs := map[string]bool{}
	for _, r := range dom.RPCs {
		l.rpc(r, errs)
	}
	for _, rec := range allRecords(dom) {
		l.unions(rec)
	}
	for _, h := range optionHeaders(dom) {
		l.add(headerOptionName(h), fmt.Sprintf("the option of header %s", h.Name), h.Pos)
	}
	return l
}

// record adds a type of types: and, for an enum, a constant per symbol.
func (l *nameList) record(rec *Record) {
	l.typ(rec, "type "+rec.Name, "", rec.Pos)
	seen := map[string]bool{}
	for _, sym := range rec.Symbols {
		if !seen[sym] { // a symbol listed twice is reported as such
			seen[sym] = true
			l.add(enumConst(rec, sym), fmt.Sprintf("symbol %s of enum %s", sym, rec.Name), rec.Pos)
		}
	}
}

// message adds an event's or a command's payload type and what is generated for it.
func (l *nameList) message(m *Message) {
	what := fmt.Sprintf("%s %s", m.Kind, m.Name)
	l.typ(m.Record, what, m.Codec, m.Pos)
	for _, n := range []string{routingKeyName(m), queueName(m.Name), consumeName(m), interceptName(m),
		retryName(m), topologyName(m.Name), consumeOptionsName(m), codecName(m.Name),
		"Publisher." + publishName(m), "Publisher." + publishBatchName(m),
		unimplementedName(handlerSet(m)) + "." + handleName(m.Name), headerRulesVar(m)} {
		l.part(n, what, m.Pos)
	}
}

// rpc adds an RPC's request and response types, what is generated for it,
// and the errors it declares first.
func (l *nameList) rpc(r *RPC, errs map[string]bool) {
	what := "rpc " + r.Name
	l.typ(r.Request, "the request of "+what, "", r.Pos)
	l.typ(r.Response, "the response of "+what, "", r.Pos)
	for _, n := range []string{serveName(r), queueName(r.Name), topologyName(r.Name), codecName(r.Name),
		"Client." + r.Name, unimplementedName(handlersSet) + "." + handleName(r.Name)} {
		l.part(n, what, r.Pos)
	}
	for _, x := range r.Errors {
		if !errs[x.Name] {
			errs[x.Name] = true
			l.add(errorName(x.Name), "the declared error "+x.Name, x.Pos)
		}
	}
}

// unions adds a record's Avro mirror and, per union field, its interface,
// branch types, decoder and converter.
func (l *nameList) unions(rec *Record) {
	if isUnionRecord(rec) {
		what := fmt.Sprintf("the Avro mirror of %s", rec.Name)
		l.add(mirrorName(rec), what, rec.Pos)
		l.method(mirrorName(rec), fromAvroMethod, what, rec.Pos)
	}
	for _, f := range unionFields(rec) {
		u, what := f.Type, fmt.Sprintf("the union of field %s of %s", f.Name, rec.Name)
		for _, n := range []string{u.Iface, decodeUnionName(u), unionMirror(u), toUnionAvroName(u)} {
			l.add(n, what, f.Pos)
		}
		for _, m := range unionMirrorMethods {
			l.method(unionMirror(u), m, what, f.Pos)
		}
		for _, b := range u.Branches {
			l.add(branchTypeName(u, b), what, f.Pos)
			l.method(branchTypeName(u, b), sealName(u), what, f.Pos)
			l.method(branchTypeName(u, b), "MarshalJSON", what, f.Pos)
		}
	}
}

// method adds a method of a type that what declares.
func (l *nameList) method(typ, method, what string, p Pos) {
	*l = append(*l, goName{name: typ + "." + method, what: what, recv: what, pos: p})
}
