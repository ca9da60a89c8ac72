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
	e.f.Comment("The declared errors of the domain's RPCs: a responder returns one to send it,")
	e.f.Comment("and a caller tests for it with errors.Is.")
	e.f.Var().DefsFunc(func(g *jen.Group) {
		for _, x := range errs {
			g.Commentf("%s is the declared error %s.", errorName(x.Name), x.Name)
			g.Id(errorName(x.Name)).Op("=").Qual(patternsPath, "NewError").Call(jen.Lit(x.Name))
		}
	})
}

func rpcHandler(r *RPC) *jen.Statement {
	return jen.Func().Params(jen.Qual(contextPath, "Context"), qual("Message").Types(jen.Id(r.Request.Name))).
		Parens(jen.List(jen.Id(r.Response.Name), jen.Error()))
}

func (e *emitter) serve(r *RPC) {
	e.comment(fmt.Sprintf("Serve%s declares %sQueue (a quorum queue with its dead-letter\n"+
		"queue) and answers each %s with h's response, or with its error\n"+
		"(a declared error reaches the caller as itself). The contract's codec\n"+
		"applies; opts come after it, so they win.", r.Name, r.Name, r.Request.Name), r.Doc, r.Deprecated)
	e.f.Func().Id(serveName(r)).Params(jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("conn").Op("*").Add(qual("Conn")),
		jen.Id("h").Add(rpcHandler(r)), jen.Id("opts").Op("...").Add(qual("ConsumeOption"))).
		Parens(jen.List(jen.Op("*").Qual(patternsPath, "Responder"), jen.Error())).Block(
		jen.Return(jen.Qual(patternsPath, "DeclareAndServe").Call(jen.Id("ctx"), jen.Id("conn"),
			jen.Id(topologyName(r.Name)).Call(qual("NewTopology").Call()), jen.Id(queueName(r.Name)), jen.Id("h"),
			jen.Append(jen.Index().Add(qual("ConsumeOption")).Values(e.rpcCodecOption(r, false)), jen.Id("opts").Op("...")).Op("..."))))
	e.f.Commentf("%s adds the queue of rpc %s to t.", topologyName(r.Name), r.Name)
	e.f.Func().Id(topologyName(r.Name)).Params(jen.Id("t").Op("*").Add(qual("Topology"))).Op("*").Add(qual("Topology")).Block(
		jen.Return(jen.Id("t").Dot("Queue").Call(jen.Id(queueName(r.Name)), qual("OfType").Call(qual("QueueQuorum"))).Dot("DeadLetters").Call(jen.Id(queueName(r.Name)))))
}

// rpcCodecOption sets an RPC's codec on the responder (a ConsumeOption) or,
// with client, on the requester.
func (e *emitter) rpcCodecOption(r *RPC, client bool) jen.Code {
	c := rpcCodec(r)
	switch {
	case client && c.needsConn():
		return jen.Qual(patternsPath, "RequesterCodecFunc").Call(jen.Id(c.fn()))
	case client:
		return jen.Qual(patternsPath, "RequesterCodec").Call(codecValue(c.codec))
	case c.needsConn():
		return qual("ConsumeWithFunc").Call(jen.Id("conn"), jen.Id(c.fn()))
	}
	return qual("ConsumeWith").Call(codecValue(c.codec))
}

func (e *emitter) client() {
	e.f.Commentf("Client calls the RPCs of the %s domain; create one with NewClient. It is", e.dom.Name)
	e.f.Comment("safe for concurrent use; Close releases what its calls set up.")
	e.f.Type().Id("Client").StructFunc(func(g *jen.Group) {
		for _, r := range e.dom.RPCs {
			g.Id(clientField(r)).Op("*").Qual(patternsPath, "Client").Types(jen.Id(r.Request.Name), jen.Id(r.Response.Name))
		}
	})
	e.f.Comment("NewClient returns a Client on conn. Nothing is declared until an RPC's first")
	e.f.Comment("call; a codec conn cannot provide (a keyring) makes that call fail naming it.")
	e.f.Func().Id("NewClient").Params(jen.Id("conn").Op("*").Add(qual("Conn"))).Op("*").Id("Client").Block(
		jen.Return(jen.Op("&").Id("Client").ValuesFunc(func(g *jen.Group) {
			for _, r := range e.dom.RPCs {
				g.Line().Id(clientField(r)).Op(":").Add(e.newRPCClient(r))
			}
			g.Line()
		})))
	for _, r := range e.dom.RPCs {
		e.clientMethod(r)
	}
	e.clientClose()
}

func (e *emitter) newRPCClient(r *RPC) jen.Code {
	opts := []jen.Code{jen.Qual(patternsPath, "Timeout").Call(durationCode(r.Timeout))}
	if len(r.Errors) > 0 {
		opts = append(opts, jen.Qual(patternsPath, "DeclaredErrors").CallFunc(func(eg *jen.Group) {
			for _, x := range r.Errors {
				eg.Id(errorName(x.Name))
			}
		}))
	}
	opts = append(opts, e.rpcCodecOption(r, true))
	args := append([]jen.Code{jen.Id("conn"), jen.Lit(""), jen.Id(queueName(r.Name))}, opts...)
	return jen.Qual(patternsPath, "NewClient").Types(jen.Id(r.Request.Name), jen.Id(r.Response.Name)).Call(args...)
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
	e.f.Comment("Close releases what the client's calls set up and returns the errors joined.")
	e.f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id("Close").Params().Error().Block(
		jen.Return(jen.Qual(errorsPath, "Join").CallFunc(func(g *jen.Group) {
			for _, r := range e.dom.RPCs {
				g.Id("c").Dot(clientField(r)).Dot("Close").Call()
			}
		})))
}
