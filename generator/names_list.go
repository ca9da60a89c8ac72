package generator

import "fmt"

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
func (l *nameList) typ(rec *recordModel, what, codec string, p Pos) {
	l.add(rec.Name, what, p)
	for _, m := range typeMethods(rec, codec) {
		name := rec.Name + "." + m
		*l = append(*l, goName{name: name, what: fmt.Sprintf("the %s of %s", name, what), recv: what, pos: p})
	}
}

// domainNames lists every identifier the package of dom declares, in the
// order the collision check claims them: the fixed names, the types, the
// messages, the RPCs, the unions, the header options.
func domainNames(dom *domain) []goName {
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
	for _, m := range dom.Streams {
		l.stream(m)
	}
	errs := map[string]bool{}
	for _, r := range dom.RPCs {
		l.rpc(r, errs)
	}
	for _, rec := range allRecords(dom) {
		l.unions(rec)
		l.jsonForms(rec, dom)
	}
	for _, h := range optionHeaders(dom) {
		l.add(headerOptionName(h), fmt.Sprintf("the option of header %s", h.Name), h.Pos)
	}
	return l
}

// record adds a type of types: and, for an enum, a constant per symbol; a
// bound type declares nothing.
func (l *nameList) record(rec *recordModel) {
	if isBound(rec) {
		return
	}
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
func (l *nameList) message(m *message) {
	what := fmt.Sprintf("%s %s", m.Kind, m.Name)
	l.typ(m.Record, what, m.Codec, m.Pos)
	for _, n := range []string{routingKeyName(m), queueName(m.Name), consumeName(m), interceptName(m),
		specVar(m.Name), "Publisher." + publishName(m), "Publisher." + publishBatchName(m),
		"Publisher." + publishAsyncName(m),
		unimplementedName(handlerSet(m)) + "." + handleName(m.Name)} {
		l.part(n, what, m.Pos)
	}
	if m.Schedulable {
		l.part("Publisher."+publishAfterName(m), what, m.Pos)
		l.part("Publisher."+publishAtName(m), what, m.Pos)
	}
}

// stream adds a stream's payload type and what is generated for it.
func (l *nameList) stream(m *message) {
	what := "stream " + m.Name
	l.typ(m.Record, what, m.Codec, m.Pos)
	for _, n := range []string{streamName(m), specVar(m.Name), readName(m), declareName(m),
		"Publisher." + publishName(m), "Publisher." + publishAsyncName(m)} {
		l.part(n, what, m.Pos)
	}
}

// rpc adds an RPC's request and response types, what is generated for it,
// and the errors it declares first.
func (l *nameList) rpc(r *rpc, errs map[string]bool) {
	what := "rpc " + r.Name
	l.typ(r.Request, "the request of "+what, "", r.Pos)
	l.typ(r.Response, "the response of "+what, "", r.Pos)
	for _, n := range []string{serveName(r), queueName(r.Name), specVar(r.Name),
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
func (l *nameList) unions(rec *recordModel) {
	if isUnionRecord(rec) {
		what := fmt.Sprintf("the Avro mirror of %s", rec.Name)
		l.add(mirrorName(rec), what, rec.Pos)
		l.method(mirrorName(rec), fromAvroMethod, what, rec.Pos)
	}
	for _, f := range unionFields(rec) {
		u, what := f.Type, fmt.Sprintf("the union of field %s of %s", f.Name, rec.Name)
		for _, n := range []string{u.Iface, unionJSONName(u), unionMirror(u), unionBranchesName(u)} {
			l.add(n, what, f.Pos)
		}
		for _, m := range unionMirrorMethods {
			l.method(unionMirror(u), m, what, f.Pos)
		}
		for _, b := range u.Branches {
			l.add(branchTypeName(u, b), what, f.Pos)
			l.method(branchTypeName(u, b), sealName(u), what, f.Pos)
			l.method(branchTypeName(u, b), "MarshalJSON", what, f.Pos)
			l.method(branchTypeName(u, b), "AppendJSON", what, f.Pos)
		}
	}
}

// jsonForms adds the variables of a record's JSON codec (emit_json_codec.go).
func (l *nameList) jsonForms(rec *recordModel, dom *domain) {
	if isBound(rec) || rec.Shape != recordShape {
		return
	}
	for _, f := range rec.Fields {
		if compositeJSONField(f.Type, dom) {
			l.add(jsonFormVar(rec, f), fmt.Sprintf("the JSON form of field %s of %s", f.Name, rec.Name), f.Pos)
		}
	}
}

// method adds a method of a type that what declares.
func (l *nameList) method(typ, method, what string, p Pos) {
	*l = append(*l, goName{name: typ + "." + method, what: what, recv: what, pos: p})
}
