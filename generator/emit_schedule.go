package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// publishScheduled writes, for a message marked schedulable, the methods
// that put it on the schedule ladder (acemq.Publisher.SendAfter and SendAt;
// docs/scheduling.md).
func (e *emitter) publishScheduled(m *message) {
	if !m.Schedulable {
		return
	}
	name, verb := publishName(m), verbOf(m)
	const note = " The contract's codec, header rules and the connection's publish interceptors apply now; " +
		"a scheduler (patterns.NewScheduler) delivers it when due, and acemq.CancelScheduled with the returned ID cancels it until then."
	e.comment(fmt.Sprintf("%sAfter %s m once d has passed, through the schedule ladder; a d of zero or less %s it at once, as %s does.%s",
		name, verb, verb, name, note), "", m.Deprecated)
	e.scheduleMethod(m, publishAfterName(m), "SendAfter", jen.Id("d").Qual("time", "Duration"))
	e.comment(fmt.Sprintf("%sAt %s m at t, through the schedule ladder; a t not after now %s it at once, as %s does.%s",
		name, verb, verb, name, note), "", m.Deprecated)
	e.scheduleMethod(m, publishAtName(m), "SendAt", jen.Id("t").Qual("time", "Time"))
}

// scheduleMethod writes one method delegating to the runtime's sendVia.
func (e *emitter) scheduleMethod(m *message, name, sendVia string, when *jen.Statement) {
	arg := jen.Id("d")
	if sendVia == "SendAt" {
		arg = jen.Id("t")
	}
	e.f.Func().Params(jen.Id("p").Op("*").Id("Publisher")).Id(name).Params(
		jen.Id("ctx").Qual(contextPath, "Context"), when, jen.Id("m").Id(m.Name), jen.Id("opts").Op("...").Add(qual("EnvelopeOption")),
	).Parens(jen.List(jen.Op("*").Add(qual("Scheduled")), jen.Error())).Block(
		jen.Return(jen.Id("p").Dot(pubField(m)).Dot(sendVia).Call(jen.Id("ctx"), arg, jen.Id("m"), jen.Id("opts").Op("..."))))
}
