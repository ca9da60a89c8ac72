package graph

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
)

// Roles of a use: the Service list it goes to.
const (
	rolePublishes = "publishes"
	roleSends     = "sends"
	roleCalls     = "calls"
	roleConsumes  = "consumes"
	roleServes    = "serves"
)

// rawUse is one use found in code, before the service it belongs to is
// known: service is the constant the call names, or "" (the module's).
type rawUse struct {
	role    string
	service string
	payload string  // the record a consumer reads: package path.Type
	gen     *genPkg // the generated package of the message
	use     sysgraph.Use
}

// scanUses records every reference in f to a generated publisher, client,
// consumer or server: calls and method values alike.
func (a *analysis) scanUses(m *module, info *types.Info, f *ast.File) {
	calls := map[*ast.Ident]*ast.CallExpr{}
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id := calleeIdent(c.Fun); id != nil {
				calls[id] = c
			}
		}
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			a.useOf(m, info, id, calls[id])
		}
		return true
	})
}

// calleeIdent is the identifier naming a call's function, or nil.
func calleeIdent(e ast.Expr) *ast.Ident {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	case *ast.IndexExpr:
		return calleeIdent(x.X)
	case *ast.IndexListExpr:
		return calleeIdent(x.X)
	}
	return nil
}

// useOf records the use id makes of a generated function, if any; call is
// the call it names, or nil for a method value.
func (a *analysis) useOf(m *module, info *types.Info, id *ast.Ident, call *ast.CallExpr) {
	fn, ok := info.Uses[id].(*types.Func)
	if !ok {
		return
	}
	g := a.generated(fn.Pkg())
	if g == nil {
		return
	}
	pos := m.pos(a.fset, id.Pos())
	if recv := fn.Signature().Recv(); recv != nil {
		a.methodUse(m, g, recvName(recv.Type()), fn.Name(), pos)
		return
	}
	a.funcUse(m, g, fn.Name(), serviceArg(info, call), pos)
}

// recvName is the name of a method's receiver type.
func recvName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// serviceArg is the constant service a Consume<Event> or Subscribe call
// names (its third argument), or "".
func serviceArg(info *types.Info, call *ast.CallExpr) string {
	if call == nil || len(call.Args) < 3 {
		return ""
	}
	if tv, ok := info.Types[call.Args[2]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value)
	}
	return ""
}

// methodUse records Publisher.Publish<E>…, Publisher.Send<C>…,
// Publisher.Append<S>… and Client.<RPC>.
func (a *analysis) methodUse(m *module, g *genPkg, recv, method, pos string) {
	switch recv {
	case "Publisher":
		if name, kind := g.published(method); name != "" {
			role := map[string]string{"event": rolePublishes, "stream": rolePublishes, "command": roleSends}[kind]
			m.add(rawUse{role: role, use: g.use(name, kind, pos)})
		}
	case "Client":
		if g.kindOf(method) == "rpc" {
			m.add(rawUse{role: roleCalls, use: g.use(method, "rpc", pos)})
		}
	}
}

// funcUse records Consume<X>, Serve<RPC>, Read<Stream>, Subscribe and Serve.
func (a *analysis) funcUse(m *module, g *genPkg, name, service, pos string) {
	switch {
	case name == "Subscribe":
		for _, e := range g.handled("EventHandlers") {
			m.add(g.consumer(e, service, pos))
		}
	case name == "Serve":
		for _, x := range g.handled("Handlers") {
			m.add(g.consumer(x, service, pos))
		}
	case strings.HasPrefix(name, "Read") && g.kindOf(strings.TrimPrefix(name, "Read")) == "stream":
		m.add(g.consumer(strings.TrimPrefix(name, "Read"), service, pos))
	case strings.HasPrefix(name, "Consume"), strings.HasPrefix(name, "Serve"):
		x := strings.TrimPrefix(strings.TrimPrefix(name, "Consume"), "Serve")
		if k := g.kindOf(x); k != "" && (k == "rpc") == strings.HasPrefix(name, "Serve") {
			m.add(g.consumer(x, service, pos))
		}
	}
}

// use is a use of the domain's message name at pos.
func (g *genPkg) use(name, kind, pos string) sysgraph.Use {
	return sysgraph.Use{Domain: g.domain, Message: name, Kind: kind, Pos: pos}
}

// consumer is the use of a consumer of name (an RPC's: a server).
func (g *genPkg) consumer(name, service, pos string) rawUse {
	kind := g.kindOf(name)
	role := roleConsumes
	if kind == "rpc" {
		role = roleServes
	}
	return rawUse{role: role, service: service, payload: g.payload(name, kind), gen: g, use: g.use(name, kind, pos)}
}
