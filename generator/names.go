package generator

import "strings"

// initialisms are the Go initialisms golint and staticcheck spell in capitals;
// docs/contracts.md fixes the list.
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
// spelled by this file, and domainNames (names_list.go) lists them all, so
// the collision check (checkGoNames) claims exactly what emission writes. A
// method is written Type.Method.

// Handler sets: what the owning service implements and what a subscribing
// service implements.
const (
	handlersSet      = "Handlers"
	eventHandlersSet = "EventHandlers"
)

// fixedNames are the identifiers every domain package declares (some only
// when the domain has events, commands or RPCs; claimed always, so adding a
// message never makes an existing type's name collide).
var fixedNames = []string{"Exchange", "Publisher", "NewPublisher", "Topology", "DeclareTopology",
	handlersSet, unimplementedName(handlersSet), eventHandlersSet, unimplementedName(eventHandlersSet), "Serve", "Subscribe",
	"Server", "Client", "NewClient", "Rules",
	"Client.Close",
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
func handlerSet(m *message) string {
	if m.Kind == eventKind {
		return eventHandlersSet
	}
	return handlersSet
}

// specVar is the specification value of a message or an RPC (an
// acemqimpl.MessageSpec or RPCSpec): the one unexported per-message
// identifier a generated package holds.
func specVar(name string) string { return unexported(name) + "Spec" }

// routingKeyName is the constant of a message's routing key.
func routingKeyName(m *message) string { return m.Name + "RoutingKey" }

// queueName is the queue of a command or an RPC (a constant), or the function
// naming a subscriber's queue of an event.
func queueName(name string) string { return name + "Queue" }

// consumeName is the function that consumes a message.
func consumeName(m *message) string { return "Consume" + m.Name }

// interceptName is the ConnOption adding a publish interceptor for a message.
func interceptName(m *message) string { return "Intercept" + m.Name }

// publishName is the Publisher method that publishes an event, sends a
// command or appends to a stream.
func publishName(m *message) string {
	switch m.Kind {
	case commandKind:
		return "Send" + m.Name
	case streamKind:
		return "Append" + m.Name
	}
	return "Publish" + m.Name
}

// readName and declareName are the functions that read a stream and declare it.
func readName(m *message) string { return "Read" + m.Name }

func declareName(m *message) string { return "Declare" + m.Name }

// streamName is the constant of a stream's name (its queue's).
func streamName(m *message) string { return m.Name + "Stream" }

// publishBatchName is the Publisher method that publishes or sends a batch.
func publishBatchName(m *message) string { return publishName(m) + "Batch" }

// publishAsyncName is the Publisher method that publishes or sends without
// waiting for the broker's confirm, returning an *acemq.Pending.
func publishAsyncName(m *message) string { return publishName(m) + "Async" }

// publishAfterName and publishAtName are the Publisher methods that schedule
// a schedulable message after a delay and at a time.
func publishAfterName(m *message) string { return publishName(m) + "After" }

func publishAtName(m *message) string { return publishName(m) + "At" }

// pubField is the Publisher's field holding a message's publisher.
func pubField(m *message) string { return "pub" + m.Name }

// serveName is the function that serves an RPC.
func serveName(r *rpc) string { return "Serve" + r.Name }

// clientField is the Client's field holding an RPC's client; the Client's
// method calling it is the RPC's name.
func clientField(r *rpc) string { return unexported(r.Name) }

// rpcPayloadName is an RPC's request or response type (part is Request or Response).
func rpcPayloadName(rpc, part string) string { return rpc + part }

// errorName is the variable of a declared RPC error.
func errorName(name string) string { return "Err" + name }

// headerOptionName is the typed EnvelopeOption setting a header.
func headerOptionName(h *header) string { return "Header" + h.GoName }

// enumConst is the constant of one symbol of an enum.
func enumConst(rec *recordModel, symbol string) string { return rec.Name + GoName(symbol) }

// fieldTypeName names the types a field's type declares: the interface of a
// union, an inline fixed type.
func fieldTypeName(rec *recordModel, f *field) string { return rec.Name + f.GoName }

// mirrorName is the Avro mirror of a record on the way to a union.
func mirrorName(rec *recordModel) string { return unexported(rec.Name) + "Avro" }

// unionMirror is the type listing a union's branches for avro.Union.
func unionMirror(u *typ) string { return unexported(u.Iface) + "Avro" }

// branchTypeName is the wrapper type of one branch of a union.
func branchTypeName(u, b *typ) string { return u.Iface + branchName(b) }

// branchName is the part of a branch's wrapper type after the interface's
// name: Long, Quantity, Timestamp-millis → TimestampMillis.
func branchName(t *typ) string {
	switch t.Kind {
	case namedKind:
		return t.Record.Name
	case decimalKind:
		return "Decimal"
	}
	return GoName(t.Prim)
}

// sealName is the method that seals a union's interface to its branches.
func sealName(u *typ) string { return "is" + u.Iface }

// unionJSONName is the variable holding a union's acemqimpl.JSONUnion.
func unionJSONName(u *typ) string { return unexported(u.Iface) + "JSON" }

// unionBranchesName is the variable holding a union's avro.UnionOf.
func unionBranchesName(u *typ) string { return unexported(u.Iface) + "Branches" }

// jsonFormVar is the package variable holding the JSON form of field f of
// rec, built once (see compositeJSONField).
func jsonFormVar(rec *recordModel, f *field) string {
	return unexported(rec.Name) + f.GoName + "JSONForm"
}

// The methods of the mirrors and converters on the way to a union.
const (
	toAvroMethod   = "toAvro"   // a record's, returning its mirror
	fromAvroMethod = "fromAvro" // a mirror's, returning the record
)

// unionMirrorMethods are the methods of the type listing a union's branches.
var unionMirrorMethods = []string{"Union"}

// typeMethods are the methods emission declares on the named type rec:
// the schema methods, Valid of an enum, the text methods of a fixed, the
// JSON methods of a record, the mirror's converter of a record on the way to
// a union, and the methods a text or bytes codec needs of a payload (codec
// is the message's; "" for a type or an RPC's half).
func typeMethods(rec *recordModel, codec string) []string {
	out := []string{"AvroSchema", "AvroFullSchema", "AvroFingerprint"}
	switch rec.Shape {
	case enumShape:
		return append(out, "Valid")
	case fixedShape:
		return append(out, "MarshalText", "UnmarshalText")
	}
	out = append(append(out, "UnmarshalJSON"), jsonCodecMethods...)
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
func optionHeaders(dom *domain) []*header {
	var all []*header
	for _, m := range payloads(dom) {
		all = append(all, m.Headers...)
	}
	return firstOfEachName(all, func(h *header) string { return h.Name })
}

// declaredErrors are the first declaration of each RPC error name of the domain.
func declaredErrors(dom *domain) []*rpcError {
	var all []*rpcError
	for _, r := range dom.RPCs {
		all = append(all, r.Errors...)
	}
	return firstOfEachName(all, func(x *rpcError) string { return x.Name })
}

// firstOfEachName returns, in order, the first of items with each name.
func firstOfEachName[T any](items []T, name func(T) string) []T {
	var out []T
	seen := map[string]bool{}
	for _, it := range items {
		if n := name(it); !seen[n] {
			seen[n] = true
			out = append(out, it)
		}
	}
	return out
}
