package generator

import "github.com/dave/jennifer/jen"

// topology writes newTopology, Topology and DeclareTopology.
func (e *emitter) topology() {
	e.f.Comment("newTopology is the domain's topic exchange.")
	e.f.Func().Id("newTopology").Params().Op("*").Add(qual("Topology")).Block(
		jen.Return(qual("NewTopology").Call().Dot("Exchange").Call(jen.Id("Exchange"), jen.Lit("topic"))))
	e.f.Comment("Topology returns what the domain declares: its topic exchange; per command,")
	e.f.Comment("the owning queue with its dead-letter and retry queues, bound to Exchange;")
	e.f.Comment("per RPC, its quorum queue with its dead-letter queue. Event queues belong to")
	e.f.Comment("the consuming services: Consume<Event> declares them. Each call returns a")
	e.f.Comment("new value.")
	e.f.Func().Id("Topology").Params().Op("*").Add(qual("Topology")).BlockFunc(func(g *jen.Group) {
		g.Id("t").Op(":=").Id("newTopology").Call()
		for _, m := range e.dom.Messages {
			if m.Kind == Command {
				g.Id("t").Op("=").Id(topologyName(m.Name)).Call(jen.Id("t"))
			}
		}
		for _, r := range e.dom.RPCs {
			g.Id("t").Op("=").Id(topologyName(r.Name)).Call(jen.Id("t"))
		}
		g.Return(jen.Id("t"))
	})
	e.f.Comment("DeclareTopology declares Topology() on conn; it is idempotent.")
	e.f.Func().Id("DeclareTopology").Params(jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("conn").Op("*").Add(qual("Conn"))).
		Error().Block(jen.Return(jen.Id("Topology").Call().Dot("Apply").Call(jen.Id("ctx"), jen.Id("conn"))))
}
