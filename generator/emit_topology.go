package generator

import (
	"slices"

	"github.com/dave/jennifer/jen"
)

// topology writes Topology and DeclareTopology.
func (e *emitter) topology() {
	i := slices.IndexFunc(e.dom.Messages, func(m *message) bool { return m.Schedulable })
	ladder := ""
	if i >= 0 {
		ladder = " With a schedulable message it also holds the family's schedule ladder (" +
			e.dom.Messages[i].ScheduleLadder + "; see docs/scheduling.md)."
	}
	streams := ""
	if len(e.dom.Streams) > 0 {
		streams = "; per stream, its queue of type stream with the contract's retention"
	}
	e.comment("Topology returns what the domain declares: its topic exchange; per command, "+
		"the owning queue with its dead-letter and retry queues, bound to Exchange; "+
		"per RPC, its quorum queue with its dead-letter queue"+streams+". Event queues belong to "+
		"the consuming services: Consume<Event> declares them."+ladder+" Each call returns a new value.", "", "")
	owned := []jen.Code{jen.Id("Exchange")}
	for _, m := range e.dom.Messages {
		if m.Kind == commandKind {
			owned = append(owned, jen.Id(specVar(m.Name)))
		}
	}
	for _, r := range e.dom.RPCs {
		owned = append(owned, jen.Id(specVar(r.Name)))
	}
	for _, m := range e.dom.Streams {
		owned = append(owned, jen.Id(specVar(m.Name)))
	}
	top := impl("Topology").Call(owned...)
	if i >= 0 {
		top = top.Dot("ScheduleLadder").Call(qual(queueTypeConst(e.dom.Messages[i].ScheduleLadder)))
	}
	e.f.Func().Id("Topology").Params().Op("*").Add(qual("Topology")).Block(jen.Return(top))
	e.comment("DeclareTopology declares Topology() on conn; it is idempotent.", "", "")
	e.f.Func().Id("DeclareTopology").Params(jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("conn").Op("*").Add(qual("Conn"))).
		Error().Block(jen.Return(jen.Id("Topology").Call().Dot("Apply").Call(jen.Id("ctx"), jen.Id("conn"))))
}
