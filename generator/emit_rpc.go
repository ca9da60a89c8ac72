package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// rpcs writes the declared errors, Serve<Rpc> per RPC, and the Client.
func (e *emitter) rpcs() {
	if len(e.dom.RPCs) == 0 {
		return
	}
	e.rpcErrors()
	for _, r := range e.dom.RPCs {
		e.serve(r)
	}
	e.client()
}

// rpcErrors declares each error name once, whichever RPCs declare it.
func (e *emitter) rpcErrors() {
	errs := declaredErrors(e.dom)
	if len(errs) == 0 {
		return
	}
	e.commentf("The declared errors of the domain's RPCs: a responder returns one to send it, and a caller tests for it with errors.Is.")
	e.f.Var().DefsFunc(func(g *jen.Group) {
		for _, x := range errs {
			groupCommentf(g, "%s is the declared error %s.", errorName(x.Name), x.Name)
			g.Id(errorName(x.Name)).Op("=").Qual(patternsPath, "NewError").Call(jen.Lit(x.Name))
		}
	})
}

func rpcHandler(r *RPC) *jen.Statement {
	return jen.Func().Params(jen.Qual(contextPath, "Context"), qual("Message").Types(jen.Id(r.Request.Name))).
		Parens(jen.List(jen.Id(r.Response.Name), jen.Error()))
}

func (e *emitter) serve(r *RPC) {
	e.comment(fmt.Sprintf("Serve%s declares %sQueue (a quorum queue with its dead-letter "+
		"queue) and answers each %s with h's response, or with its error "+
		"(a declared error reaches the caller as itself). The contract's codec "+
		"applies; opts come after it, so they win.", r.Name, r.Name, r.Request.Name), r.Doc, r.Deprecated)
	e.f.Func().Id(serveName(r)).Params(jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("conn").Op("*").Add(qual("Conn")),
		jen.Id("h").Add(rpcHandler(r)), jen.Id("opts").Op("...").Add(qual("ConsumeOption"))).
		Parens(jen.List(jen.Op("*").Qual(patternsPath, "Responder"), jen.Error())).Block(
		jen.Return(jen.Id(specVar(r.Name)).Dot("Serve").Call(jen.Id("ctx"), jen.Id("conn"), jen.Id("h"), jen.Id("opts").Op("..."))))
}

func (e *emitter) client() {
	e.commentf("Client calls the RPCs of the %s domain; create one with NewClient. It is safe for concurrent use; Close releases what its calls set up.", e.dom.Name)
	e.f.Type().Id("Client").StructFunc(func(g *jen.Group) {
		for _, r := range e.dom.RPCs {
			g.Id(clientField(r)).Op("*").Qual(patternsPath, "Client").Types(jen.Id(r.Request.Name), jen.Id(r.Response.Name))
		}
	})
	e.commentf("NewClient returns a Client on conn. Nothing is declared until an RPC's first call; a codec conn cannot provide (a keyring) makes that call fail naming it.")
	e.f.Func().Id("NewClient").Params(jen.Id("conn").Op("*").Add(qual("Conn"))).Op("*").Id("Client").Block(
		jen.Return(jen.Op("&").Id("Client").ValuesFunc(func(g *jen.Group) {
			for _, r := range e.dom.RPCs {
				g.Line().Id(clientField(r)).Op(":").Id(specVar(r.Name)).Dot("Client").Call(jen.Id("conn"))
			}
			g.Line()
		})))
	for _, r := range e.dom.RPCs {
		e.clientMethod(r)
	}
	e.clientClose()
}

func (e *emitter) clientMethod(r *RPC) {
	e.comment(fmt.Sprintf("%s sends req to %sQueue and waits for the response, at most %s\n"+
		"unless ctx ends sooner. A declared error of the rpc is returned as itself.", r.Name, r.Name, shortDuration(r.Timeout)), r.Doc, r.Deprecated)
	e.f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(r.Name).Params(jen.Id("ctx").Qual(contextPath, "Context"),
		jen.Id("req").Id(r.Request.Name), jen.Id("opts").Op("...").Add(qual("EnvelopeOption"))).
		Parens(jen.List(jen.Id(r.Response.Name), jen.Error())).Block(
		jen.Return(jen.Id("c").Dot(clientField(r)).Dot("Do").Call(jen.Id("ctx"), jen.Id("req"), jen.Id("opts").Op("..."))))
}

func (e *emitter) clientClose() {
	e.commentf("Close releases what the client's calls set up and returns the errors joined.")
	e.f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id("Close").Params().Error().Block(
		jen.Return(jen.Qual(errorsPath, "Join").CallFunc(func(g *jen.Group) {
			for _, r := range e.dom.RPCs {
				g.Id("c").Dot(clientField(r)).Dot("Close").Call()
			}
		})))
}
