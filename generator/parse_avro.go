package generator

import (
	"strings"

	"github.com/acemq/acemq-gen/internal/spelling"
	"github.com/goccy/go-yaml/ast"
)

// parseSource reads a YAML contract or an .avsc file.
func parseSource(src Source, d *diags) *syntaxFile {
	if strings.HasSuffix(src.Path, ".avsc") {
		return parseAvsc(src, d)
	}
	return parseContract(src, d)
}

// avscKeys are the keys of the acemq property of an .avsc record.
var avscKeys = newKeySet(append([]string{"kind", "domain", "queue", "timeout", "errors", "doc", "codec", "routing-key",
	"version", "deprecated", "headers", "retry", "encrypted", "subject", "mandatory"}, queueKeys...))

// avsc reads one .avsc file (JSON, which goccy/go-yaml parses with positions).
type avsc struct {
	*yamlDoc
	f *syntaxFile
}

// parseAvsc reads an .avsc file: one named schema or a list of them. Named
// types declared inline are hoisted so every file of the run can use them;
// a top-level record with an "acemq" property is a message.
func parseAvsc(src Source, d *diags) *syntaxFile {
	a := &avsc{yamlDoc: &yamlDoc{path: src.Path, d: d}}
	root := a.root(src.Data)
	if root == nil {
		return nil
	}
	a.strictJSON(src.Data)
	a.f = &syntaxFile{Path: src.Path, P: a.pos(root), Avro: true}
	tops := []ast.Node{root}
	if seq, ok := unwrap(root).(*ast.SequenceNode); ok {
		tops = seq.Values
	}
	for _, n := range tops {
		a.top(n)
	}
	if len(a.f.Types) == 0 {
		d.errorf(a.f.P, "an .avsc file holds a named schema (record, enum or fixed), or a list of them")
	}
	return a.f
}

func (a *avsc) top(n ast.Node) {
	m, ok := unwrap(n).(*ast.MappingNode)
	if !ok {
		a.wrongType(n, "a top-level Avro schema", "a named schema (record, enum or fixed)")
		return
	}
	t := a.named(m, "")
	if t == nil {
		return
	}
	if props := lookup(m, "acemq"); props != nil {
		a.message(t, props)
	}
}

// lookup returns the value of key in m, or nil.
func lookup(m *ast.MappingNode, key string) ast.Node {
	for _, mv := range m.Values {
		if keyText(mv.Key) == key {
			return mv.Value
		}
	}
	return nil
}

func (a *avsc) text(m *ast.MappingNode, key string) sStr {
	n := lookup(m, key)
	if n == nil {
		return sStr{}
	}
	return a.sStr(entry{key: key, val: n})
}

// named reads a record, enum or fixed schema declared in namespace ns and
// adds it to the file's types; nil when it is not one.
func (a *avsc) named(m *ast.MappingNode, ns string) *syntaxType {
	typ, name := a.text(m, "type"), a.text(m, "name")
	if !name.Set {
		a.d.errorf(a.pos(m), "a named Avro schema needs a name")
		return nil
	}
	if space := a.text(m, "namespace"); space.Set {
		ns = space.V
	}
	if i := strings.LastIndex(name.V, "."); i >= 0 {
		ns, name.V = name.V[:i], name.V[i+1:]
	}
	t := &syntaxType{Name: name, Doc: a.text(m, "doc"), Deprecated: a.text(m, "deprecated"), Namespace: ns}
	if al := lookup(m, "aliases"); al != nil {
		t.Aliases = a.strings(al, "aliases")
	}
	a.f.Types = append(a.f.Types, t)
	a.body(t, m, typ, ns)
	return t
}

func (a *avsc) body(t *syntaxType, m *ast.MappingNode, typ sStr, ns string) {
	switch typ.V {
	case "record", "error":
		t.FieldsSet = true
		if fs := lookup(m, "fields"); fs != nil {
			t.Fields = a.fields(fs, ns)
		}
	case "enum":
		t.EnumSet = true
		if s := lookup(m, "symbols"); s != nil {
			t.Enum = a.sStrs(s, "symbols")
		}
		t.Default = a.text(m, "default")
	case "fixed":
		if n := lookup(m, "size"); n != nil {
			t.Fixed = a.sInt(entry{key: "size", val: n})
		}
	default:
		a.d.errorf(orPos(typ, t.Name.P), "type %s: a named Avro schema is a record, an enum or a fixed, not %q", t.Name.V, typ.V)
	}
}

func (a *avsc) fields(n ast.Node, ns string) []*syntaxField {
	items, _ := a.list(n, "fields")
	var out []*syntaxField
	for _, it := range items {
		m, ok := unwrap(it).(*ast.MappingNode)
		if !ok {
			a.wrongType(it, "a field", "a mapping with name and type")
			continue
		}
		f := &syntaxField{Name: a.text(m, "name"), Doc: a.text(m, "doc"), Deprecated: a.text(m, "deprecated"), Default: a.value(lookup(m, "default"))}
		if !f.Name.Set {
			a.d.errorf(a.pos(m), "a field needs a name")
			continue
		}
		if al := lookup(m, "aliases"); al != nil {
			f.Aliases = a.strings(al, "aliases")
		}
		f.Type = a.typeExpr(lookup(m, "type"), a.pos(m), ns, "the type of field "+f.Name.V)
		out = append(out, f)
	}
	return out
}

// typeExpr reads an Avro type: a name, a union list or a schema mapping.
func (a *avsc) typeExpr(n ast.Node, p Pos, ns, what string) *typeExpr {
	switch v := unwrap(n).(type) {
	case nil:
		a.d.errorf(p, "%s is missing", what)
	case *ast.StringNode:
		return &typeExpr{P: a.pos(n), Op: exprName, Name: a.ref(v.Value, ns)}
	case *ast.SequenceNode:
		u := &typeExpr{P: a.pos(n), Op: exprUnion}
		for _, b := range v.Values {
			e := a.typeExpr(b, a.pos(b), ns, what)
			if e == nil {
				return nil
			}
			u.Elems = append(u.Elems, e)
		}
		return u
	case *ast.MappingNode:
		return a.typeMapping(v, ns, what)
	default:
		a.wrongType(n, what, "an Avro type")
	}
	return nil
}

// ref is a type name as the resolver looks it up: primitives as they are,
// other names in full.
func (a *avsc) ref(name, ns string) string {
	if avroPrimitives[name] || strings.Contains(name, ".") || ns == "" {
		return name
	}
	return ns + "." + name
}

var avroPrimitives = map[string]bool{"null": true, "boolean": true, "int": true, "long": true,
	"float": true, "double": true, "string": true, "bytes": true}

func (a *avsc) typeMapping(m *ast.MappingNode, ns, what string) *typeExpr {
	typ := a.text(m, "type")
	p := a.pos(m)
	switch typ.V {
	case "array", "map":
		key := map[string]string{"array": "items", "map": "values"}[typ.V]
		op := map[string]exprOp{"array": exprArray, "map": exprMap}[typ.V]
		return wrapExpr(p, op, a.typeExpr(lookup(m, key), p, ns, what))
	case "record", "error", "enum", "fixed":
		t := a.named(m, ns)
		if t == nil {
			return nil
		}
		return &typeExpr{P: p, Op: exprName, Name: a.ref(t.Name.V, t.Namespace)}
	}
	if !typ.Set {
		return a.typeExpr(lookup(m, "type"), p, ns, what)
	}
	return &typeExpr{P: p, Op: exprName, Name: a.logical(m, typ.V)}
}

// logical maps a primitive with a logical type to the YAML spelling; an
// unknown logical type is ignored, as Avro says.
func (a *avsc) logical(m *ast.MappingNode, base string) string {
	lt := a.text(m, "logicalType")
	if !lt.Set {
		return base
	}
	if lt.V == "decimal" && base == "bytes" {
		return "decimal(" + a.number(m, "precision") + "," + a.number(m, "scale") + ")"
	}
	if l, ok := logical[lt.V]; ok && l[0] == base {
		return lt.V
	}
	return base
}

func (a *avsc) number(m *ast.MappingNode, key string) string {
	if n, ok := unwrap(lookup(m, key)).(*ast.IntegerNode); ok {
		return n.GetToken().Value
	}
	return "0"
}

// message reads the acemq property of a top-level record. A wrong kind or
// a missing domain is reported with every other problem of the property:
// the message is then refused, its keys still checked.
func (a *avsc) message(t *syntaxType, props ast.Node) {
	s := &syntaxMessage{Name: t.Name, Doc: t.Doc, Deprecated: t.Deprecated, Payload: t}
	for _, e := range a.entries(props, "the acemq property of "+t.Name.V, avscKeys) {
		a.messageProp(s, e)
	}
	ok := a.kind(s, t)
	if s.Mandatory.Given && s.AvroKind.V != "event" {
		a.d.errorf(s.Mandatory.P, "record %s: acemq.mandatory is refused: %s", t.Name.V, impliedKeys["mandatory"])
	}
	if !s.Domain.Set {
		a.d.errorf(t.Name.P, "record %s: the acemq property needs a domain", t.Name.V)
		ok = false
	}
	if !ok {
		a.f.Refused = append(a.f.Refused, s)
		return
	}
	a.f.Messages = append(a.f.Messages, s)
}

// kind reads acemq.kind into s, reporting a kind the format does not have.
func (a *avsc) kind(s *syntaxMessage, t *syntaxType) bool {
	switch s.AvroKind.V {
	case "event", "rpc-request", "rpc-response":
	case "command":
		s.Kind = commandKind
	default:
		kinds := []string{"event", "command", "rpc-request", "rpc-response"}
		a.d.errorf(orPos(s.AvroKind, t.Name.P), "record %s: acemq.kind must be event, command, rpc-request or rpc-response%s",
			t.Name.V, spelling.DidYouMean(spelling.Nearest(s.AvroKind.V, kinds)))
		return false
	}
	return true
}

func (a *avsc) messageProp(s *syntaxMessage, e entry) {
	switch e.key {
	case "kind":
		s.AvroKind = a.sStr(e)
	case "domain":
		s.Domain = a.sStr(e)
	case "timeout":
		s.Timeout = a.sStr(e)
	case "errors":
		s.Errors = a.sStrs(e.val, "errors")
	default:
		a.messageKey(s, e)
	}
}

func orPos(s sStr, p Pos) Pos {
	if s.Given {
		return s.P
	}
	return p
}
