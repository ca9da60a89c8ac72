package generator

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"
)

// parseContract reads one YAML contract into its syntax tree; it returns nil
// when the file is not YAML at all. Problems go to d.
func parseContract(src Source, d *diags) *syntaxFile {
	y := &yamlDoc{path: src.Path, d: d}
	root := y.root(src.Data)
	if root == nil {
		return nil
	}
	f := &syntaxFile{Path: src.Path, P: y.pos(root)}
	for _, e := range y.entries(root, "the contract", fileKeys) {
		y.fileKey(f, e)
	}
	return f
}

func (y *yamlDoc) fileKey(f *syntaxFile, e entry) {
	strs := map[string]*sStr{"domain": &f.Domain, "package": &f.Package,
		"namespace": &f.Namespace, "doc": &f.Doc, "codec": &f.Codec, "set-aside-queues": &f.SetAside,
		"schedule-ladder": &f.ScheduleLadder}
	switch e.key {
	case "acemq":
		f.Acemq = y.sInt(e)
	case "encrypted":
		f.Encrypted = y.sBool(e)
	case "retry":
		f.Retry = y.retry(e)
	case "types":
		f.Types = y.types(e)
	case "events", "commands", "streams":
		f.Messages = append(f.Messages, y.messages(e)...)
	case "rpc":
		f.RPCs = y.rpcs(e)
	case "imports":
		f.Imports = y.imports(e)
	default:
		*strs[e.key] = y.sStr(e)
	}
}

func (y *yamlDoc) sStr(e entry) sStr {
	v, ok := y.str(e.val, fmt.Sprintf("%q", e.key))
	return sStr{V: v, P: y.pos(e.val), Set: ok, Given: true}
}

func (y *yamlDoc) sInt(e entry) sInt {
	v, ok := y.integer(e.val, fmt.Sprintf("%q", e.key))
	return sInt{V: v, P: y.pos(e.val), Set: ok, Given: true}
}

func (y *yamlDoc) sInt64(e entry) sInt64 {
	v, ok := y.integer64(e.val, fmt.Sprintf("%q", e.key))
	return sInt64{V: v, P: y.pos(e.val), Set: ok, Given: true}
}

func (y *yamlDoc) sBool(e entry) sBool {
	v, ok := y.boolean(e.val, fmt.Sprintf("%q", e.key))
	return sBool{V: v, P: y.pos(e.val), Set: ok, Given: true}
}

func (y *yamlDoc) retry(e entry) *syntaxRetry {
	r := &syntaxRetry{P: y.pos(e.val)}
	strs := map[string]*sStr{"backoff": &r.Backoff, "initial": &r.Initial, "max": &r.Max, "max-age": &r.MaxAge}
	for _, k := range y.entries(e.val, "retry", retryKeys) {
		if k.key == "attempts" {
			r.Attempts = y.sInt(k)
			continue
		}
		*strs[k.key] = y.sStr(k)
	}
	return r
}

func (y *yamlDoc) types(e entry) []*syntaxType {
	var out []*syntaxType
	for _, k := range y.pairs(e.val, "types") {
		t := &syntaxType{Name: sStr{V: k.key, P: k.pos, Set: true}}
		for _, a := range y.entries(k.val, "type "+k.key, typeKeys) {
			y.typeKey(t, a)
		}
		out = append(out, t)
	}
	return out
}

func (y *yamlDoc) typeKey(t *syntaxType, a entry) {
	switch a.key {
	case "doc":
		t.Doc = y.sStr(a)
	case "deprecated":
		t.Deprecated = y.sStr(a)
	case "fields":
		t.Fields, t.FieldsSet = y.fields(a.val), true
	case "enum":
		t.Enum, t.EnumSet = y.sStrs(a.val, "enum symbols"), true
	case "default":
		t.Default = y.sStr(a)
	case "fixed":
		t.Fixed = y.sInt(a)
	case "aliases":
		t.Aliases = y.strings(a.val, "aliases")
	case "go":
		t.Go = y.sStr(a)
		t.Go.P = a.pos // diagnostics of the binding point at the key
	}
}

// sStrs reads a list of strings with their positions.
func (y *yamlDoc) sStrs(n ast.Node, what string) []sStr {
	items, _ := y.list(n, what)
	var out []sStr
	for _, it := range items {
		if v, ok := y.str(it, what); ok {
			out = append(out, sStr{V: v, P: y.pos(it), Set: true, Given: true})
		}
	}
	return out
}

// imports reads imports: {alias: path}.
func (y *yamlDoc) imports(e entry) []syntaxImport {
	var out []syntaxImport
	for _, k := range y.pairs(e.val, "imports") {
		out = append(out, syntaxImport{Alias: sStr{V: k.key, P: k.pos, Set: true, Given: true}, Path: y.sStr(k)})
	}
	return out
}

func (y *yamlDoc) messages(e entry) []*syntaxMessage {
	kind, keys := eventKind, eventKeys
	switch e.key {
	case "commands":
		kind, keys = commandKind, commandKeys
	case "streams":
		kind, keys = streamKind, streamKeys
	}
	var out []*syntaxMessage
	for _, k := range y.pairs(e.val, e.key) {
		m := &syntaxMessage{Kind: kind, Name: sStr{V: k.key, P: k.pos, Set: true}}
		for _, a := range y.entries(k.val, kind.String()+" "+k.key, keys) {
			y.messageKey(m, a)
		}
		out = append(out, m)
	}
	return out
}

func (y *yamlDoc) messageKey(m *syntaxMessage, a entry) {
	strs := map[string]*sStr{"doc": &m.Doc, "deprecated": &m.Deprecated, "codec": &m.Codec,
		"routing-key": &m.RoutingKey, "queue": &m.Queue, "subject": &m.Subject, "max-age": &m.MaxAge}
	if m.Kind != streamKind && y.queueKey(&m.syntaxQueueKeys, a) {
		return
	}
	switch a.key {
	case "max-bytes":
		m.MaxBytes = y.sInt64(a)
	case "segment-bytes":
		m.SegmentBytes = y.sInt64(a)
	case "version":
		m.Version = y.sInt(a)
	case "encrypted":
		m.Encrypted = y.sBool(a)
	case "mandatory":
		m.Mandatory = y.sBool(a)
	case "schedulable":
		m.Schedulable = y.sBool(a)
	case "retry":
		m.Retry = y.retry(a)
	case "headers":
		m.Headers = y.headers(a.val)
	case "fields":
		m.Fields, m.FieldsSet = y.fields(a.val), true
	case "schema":
		m.Schema = y.sStr(a)
	default:
		*strs[a.key] = y.sStr(a)
	}
}

// queueKey reads a key about the queues a message is consumed from (a row
// of queueKeyTable) into q and reports whether a was one.
func (y *yamlDoc) queueKey(q *syntaxQueueKeys, a entry) bool {
	k, ok := queueKeyFor(a.key)
	switch {
	case !ok:
		return false
	case k.values == nil:
		if q.ints == nil {
			q.ints = map[string]sInt{}
		}
		q.ints[k.name] = y.sInt(a)
	default:
		if q.strs == nil {
			q.strs = map[string]sStr{}
		}
		q.strs[k.name] = y.sStr(a)
	}
	return true
}

func (y *yamlDoc) rpcs(e entry) []*syntaxRPC {
	var out []*syntaxRPC
	for _, k := range y.pairs(e.val, "rpc") {
		r := &syntaxRPC{Name: sStr{V: k.key, P: k.pos, Set: true, Given: true}}
		for _, a := range y.entries(k.val, "rpc "+k.key, rpcKeys) {
			y.rpcKey(r, a)
		}
		out = append(out, r)
	}
	return out
}

func (y *yamlDoc) rpcKey(r *syntaxRPC, a entry) {
	strs := map[string]*sStr{"doc": &r.Doc, "deprecated": &r.Deprecated, "codec": &r.Codec,
		"queue": &r.Queue, "timeout": &r.Timeout}
	if y.queueKey(&r.syntaxQueueKeys, a) {
		return
	}
	switch a.key {
	case "encrypted":
		r.Encrypted = y.sBool(a)
	case "errors":
		r.Errors = y.sStrs(a.val, "errors")
	case "request":
		r.Request = y.payload(a, "the request of rpc "+r.Name.V)
	case "response":
		r.Response = y.payload(a, "the response of rpc "+r.Name.V)
	default:
		*strs[a.key] = y.sStr(a)
	}
}

func (y *yamlDoc) payload(e entry, what string) *syntaxPayload {
	p := &syntaxPayload{P: e.pos}
	for _, a := range y.entries(e.val, what, payloadKeys) {
		switch a.key {
		case "doc":
			p.Doc = y.sStr(a)
		case "schema":
			p.Schema = y.sStr(a)
		case "fields":
			p.Fields, p.FieldsSet = y.fields(a.val), true
		}
	}
	return p
}

func (y *yamlDoc) headers(n ast.Node) []*syntaxHeader {
	var out []*syntaxHeader
	for _, k := range y.pairs(n, "headers") {
		h := &syntaxHeader{Name: sStr{V: k.key, P: k.pos, Set: true}}
		if _, short := unwrap(k.val).(*ast.StringNode); short {
			h.Type = y.sStr(entry{key: "type", val: k.val})
		} else {
			y.headerLong(h, k)
		}
		out = append(out, h)
	}
	return out
}

func (y *yamlDoc) headerLong(h *syntaxHeader, k entry) {
	for _, a := range y.entries(k.val, "header "+k.key, headerKeys) {
		switch a.key {
		case "type":
			h.Type = y.sStr(a)
		case "required":
			h.Required = y.sBool(a)
		case "doc":
			h.Doc = y.sStr(a)
		}
	}
}

func (y *yamlDoc) fields(n ast.Node) []*syntaxField {
	var out []*syntaxField
	for _, k := range y.pairs(n, "fields") {
		f := &syntaxField{Name: sStr{V: k.key, P: k.pos, Set: true}}
		what := "the type of field " + k.key
		if isLongForm(k.val) {
			y.fieldLong(f, k)
		} else {
			f.Type = y.typeExpr(k.val, what)
		}
		out = append(out, f)
	}
	return out
}

func (y *yamlDoc) fieldLong(f *syntaxField, k entry) {
	for _, a := range y.entries(k.val, "field "+k.key, fieldKeys) {
		switch a.key {
		case "type":
			f.Type = y.typeExpr(a.val, "the type of field "+k.key)
		case "default":
			f.Default = y.value(a.val)
		case "doc":
			f.Doc = y.sStr(a)
		case "deprecated":
			f.Deprecated = y.sStr(a)
		case "aliases":
			f.Aliases = y.strings(a.val, "aliases")
		}
	}
}

func (y *yamlDoc) strings(n ast.Node, what string) []string {
	items, _ := y.list(n, what)
	var out []string
	for _, it := range items {
		if s, ok := y.str(it, what+" entries"); ok {
			out = append(out, s)
		}
	}
	return out
}
